package io.celer.bench.ws.peer;

import org.HdrHistogram.Histogram;

/**
 * What the load client's feed readers count, all on its reactor thread: messages and gaps in the sequence numbers
 * of the fast and the slow clients, and the fast clients' latency while measuring, from the send stamp and from the
 * due stamp to receipt.
 * Fields are plain; other threads read them through {@link io.celer.reactor.Reactor#call}, except the counts of
 * open and closed clients, which are volatile for the waiting main thread.
 */
final class FeedTally
{
    /** The longest latency recorded, in nanoseconds; longer ones are recorded as this. */
    static final long HIGHEST_NANOS = 60_000_000_000L;

    /** Fast clients' latency from the send stamp while measuring, nanoseconds. */
    final Histogram latency = new Histogram(HIGHEST_NANOS, 3);
    /**
     * Fast clients' latency from the due stamp while measuring, nanoseconds: also how late the server sent, which
     * a server that generates late hides from the send stamp.
     */
    final Histogram sinceDue = new Histogram(HIGHEST_NANOS, 3);
    long fastReceived;
    long fastLost;
    long slowReceived;
    long slowLost;
    long outOfOrder;
    /**
     * Whether latencies are recorded: from the start, so that the warm-up runs and compiles the recording path
     * (the measure's start resets the histograms), until the measure ends. Recording only from the measure's start
     * ran code there that the warm-up never had, and a stall of some 300 ms followed that every server's fast
     * clients met first thing in their measure, about 1 % of a quick run's messages.
     */
    boolean recording = true;
    volatile int opened;
    volatile int closed;
    volatile int fastClosed;

    /**
     * A fast client got a message.
     *
     * @param sendNanos its send stamp.
     * @param dueNanos  its due stamp.
     */
    void fast(final long sendNanos, final long dueNanos)
    {
        fastReceived++;
        if (recording)
        {
            final long now = System.nanoTime();
            latency.recordValue(Math.min(HIGHEST_NANOS, Math.max(1, now - sendNanos)));
            sinceDue.recordValue(Math.min(HIGHEST_NANOS, Math.max(1, now - dueNanos)));
        }
    }
}
