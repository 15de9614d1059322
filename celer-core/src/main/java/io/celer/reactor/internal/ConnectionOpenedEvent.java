package io.celer.reactor.internal;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.EventType;
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
    /** Its type, looked up at the first connection rather than when Celer loads. */
    private static final class Type
    {
        static final EventType TYPE = EventType.getEventType(ConnectionOpenedEvent.class);
    }

    @Label("Reactor")
    String reactor;

    @Label("Remote Address")
    String remoteAddress;

    @Label("Connection Id")
    long connectionId;

    /**
     * Whether a recording wants these events: checked before any field is made.
     *
     * @return true while enabled.
     */
    public static boolean enabled()
    {
        return Type.TYPE.isEnabled();
    }

    /**
     * Records an opening; call only when {@link #enabled()}.
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
