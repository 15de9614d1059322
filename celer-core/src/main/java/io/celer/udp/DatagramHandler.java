package io.celer.udp;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * The application's side of a UDP endpoint; every call is on the reactor thread.
 *
 * <p>An exception thrown by {@link #datagram} goes to {@link #error} and the endpoint keeps receiving.
 */
public interface DatagramHandler
{
    /**
     * One datagram.
     *
     * <p>The buffer and the address are valid only during the call: both are reused for the next datagram
     * from the same sender, which is what keeps receiving garbage-free.
     *
     * @param endpoint the endpoint that received it.
     * @param payload  the datagram between position and limit.
     * @param sender   where it came from.
     */
    void datagram(UdpEndpoint endpoint, ByteBuffer payload, InetSocketAddress sender);

    /**
     * Something failed: a datagram larger than the receive buffer (dropped), an I/O error, or this handler.
     * The endpoint stays open.
     *
     * @param endpoint the endpoint.
     * @param error    the cause.
     */
    default void error(final UdpEndpoint endpoint, final Throwable error)
    {
    }
}
