package io.celer.udp;

import io.celer.counters.BatchedTotal;
import io.celer.counters.Counter;
import io.celer.counters.CounterScope;

/**
 * The UDP counters of one reactor, shared by its endpoints; written on its thread.
 */
final class UdpCounters
{
    final BatchedTotal datagramsIn;
    final BatchedTotal bytesIn;
    final BatchedTotal datagramsOut;
    final BatchedTotal bytesOut;
    /** Received datagrams larger than {@link UdpConfig#maxDatagramSize()}, truncated by the kernel and dropped. */
    final Counter oversized;
    /** Sends refused because the socket's send buffer had no room. */
    final Counter sendBufferFull;

    private UdpCounters(final CounterScope scope)
    {
        datagramsIn = scope.batchedTotal("udp.datagrams.in", "");
        bytesIn = scope.batchedTotal("udp.bytes.in", "");
        datagramsOut = scope.batchedTotal("udp.datagrams.out", "");
        bytesOut = scope.batchedTotal("udp.bytes.out", "");
        oversized = scope.total("udp.datagrams.dropped", "cause=oversized");
        sendBufferFull = scope.total("udp.datagrams.dropped", "cause=send_buffer_full");
    }

    /** The counters of a reactor's UDP endpoints. */
    static UdpCounters of(final CounterScope scope)
    {
        return scope.group(UdpCounters.class, UdpCounters::new);
    }

    /** Counts a send's outcome: a datagram out, or one refused for want of room. */
    boolean sent(final int written, final int length)
    {
        if (written > 0 || length == 0)
        {
            datagramsOut.increment();
            bytesOut.add(written);
            return true;
        }
        sendBufferFull.increment();
        return false;
    }
}
