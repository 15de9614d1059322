package io.celer.reactor.internal;

import java.nio.channels.SelectionKey;
import io.celer.reactor.Reactor;

/**
 * A channel owner driven by a {@link Reactor}: the attachment of its selection key.
 *
 * <p>Implemented by transports (TCP, UDP); applications use handlers instead.
 */
public interface Selectable
{
    /**
     * Handles the ready operations of the key; runs on the reactor thread.
     *
     * @param key the selected key, whose attachment is this object.
     */
    void onSelect(SelectionKey key);

    /**
     * Releases the channel because the reactor is stopping; runs on the reactor thread.
     */
    void onReactorStop();
}
