package io.celer.bench.ws.peer;

import org.HdrHistogram.Histogram;

/**
 * What the load client's feed readers count, all on its reactor thread: messages and gaps in the sequence numbers
 * of the fast and the slow clients, and the fast clients' latency (send stamp to receipt) while measuring.
 * Fields are plain; other threads read them through {@link io.celer.reactor.Reactor#call}, except the counts of
 * open and closed clients, which are volatile for the waiting main thread.
 */
final class FeedTally
{
    /** The longest latency recorded, in nanoseconds; longer ones are recorded as this. */
    static final long HIGHEST_NANOS = 60_000_000_000L;

    /** Fast clients' latency while measuring, nanoseconds. */
    final Histogram latency = new Histogram(HIGHEST_NANOS, 3);
    long fastReceived;
    long fastLost;
    long slowReceived;
    long slowLost;
    long outOfOrder;
    boolean measuring;
    volatile int opened;
    volatile int closed;
    volatile int fastClosed;

    /**
     * A fast client got a message.
     *
     * @param sendNanos its send stamp.
     */
    void fast(final long sendNanos)
    {
        fastReceived++;
        if (measuring)
        {
            latency.recordValue(Math.min(HIGHEST_NANOS, Math.max(1, System.nanoTime() - sendNanos)));
        }
    }
}
