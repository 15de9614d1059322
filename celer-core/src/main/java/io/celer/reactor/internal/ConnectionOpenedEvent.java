package io.celer.reactor.internal;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * JFR event {@code io.celer.ConnectionOpened}: a TCP connection established (after its TLS handshake, if any).
 * Made only while a recording enables it.
 */
@Name("io.celer.ConnectionOpened")
@Label("Connection Opened")
@Category({"Celer", "TCP"})
@Description("A TCP connection established, after its TLS handshake if any")
@StackTrace(false)
public final class ConnectionOpenedEvent extends Event
{
    /**
     * An empty event, to fill and commit, or to ask {@code isEnabled()} of.
     */
    public ConnectionOpenedEvent()
    {
    }

    @Label("Reactor")
    String reactor;

    @Label("Remote Address")
    String remoteAddress;

    @Label("Connection Id")
    long connectionId;

    /**
     * Records an opening; call only when {@link JfrEvents} says it is enabled.
     *
     * @param reactor       the reactor's name.
     * @param remoteAddress the peer.
     * @param connectionId  the connection's id.
     */
    public static void commit(final String reactor, final Object remoteAddress, final long connectionId)
    {
        final ConnectionOpenedEvent event = new ConnectionOpenedEvent();
        event.reactor = reactor;
        event.remoteAddress = String.valueOf(remoteAddress);
        event.connectionId = connectionId;
        event.commit();
    }
}
