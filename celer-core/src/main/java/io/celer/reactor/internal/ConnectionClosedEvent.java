package io.celer.reactor.internal;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * JFR event {@code io.celer.ConnectionClosed}: a TCP connection closed, why, and the bytes it carried. Made only
 * while a recording enables it.
 */
@Name("io.celer.ConnectionClosed")
@Label("Connection Closed")
@Category({"Celer", "TCP"})
@Description("A TCP connection closed, why, and the bytes it carried")
@StackTrace(false)
public final class ConnectionClosedEvent extends Event
{
    /**
     * An empty event, to fill and commit, or to ask {@code isEnabled()} of.
     */
    public ConnectionClosedEvent()
    {
    }

    @Label("Reactor")
    String reactor;

    @Label("Remote Address")
    String remoteAddress;

    @Label("Connection Id")
    long connectionId;

    @Label("Reason")
    String reason;

    @Label("Bytes In")
    @DataAmount
    long bytesIn;

    @Label("Bytes Out")
    @DataAmount
    long bytesOut;

    /**
     * Records a close; call only when {@link JfrEvents} says it is enabled.
     *
     * @param reactor       the reactor's name.
     * @param remoteAddress the peer.
     * @param connectionId  the connection's id.
     * @param reason        why it closed.
     * @param bytesIn       bytes read, as {@code tcp.bytes.in} counts them.
     * @param bytesOut      bytes written, as {@code tcp.bytes.out} counts them.
     */
    public static void commit(final String reactor, final Object remoteAddress, final long connectionId,
        final Object reason, final long bytesIn, final long bytesOut)
    {
        final ConnectionClosedEvent event = new ConnectionClosedEvent();
        event.reactor = reactor;
        event.remoteAddress = String.valueOf(remoteAddress);
        event.connectionId = connectionId;
        event.reason = String.valueOf(reason);
        event.bytesIn = bytesIn;
        event.bytesOut = bytesOut;
        event.commit();
    }
}
