package io.celer.http.server;

import io.celer.tcp.Connection;

/**
 * Why a connection is not read now, a bit per reason; reading resumes when the last reason clears, and the
 * core then delivers again the bytes it already holds (at the end of the reactor cycle) before reading more.
 */
final class ReadGate
{
    /** The peer does not read its responses. */
    static final int WRITE = 1;
    /** Every response slot is taken. */
    static final int PIPELINE = 2;
    /** An upgrade request waits for its answer. */
    static final int UPGRADE = 4;
    /** The per-read request budget is spent: the other connections go first. */
    static final int YIELD = 8;

    private final Connection connection;
    /** Made at the first yield: a connection that never reads a burst of requests holds none. */
    private Runnable endYield;
    private int reasons;

    ReadGate(final Connection connection)
    {
        this.connection = connection;
    }

    boolean isOpen()
    {
        return reasons == 0;
    }

    void close(final int reason)
    {
        if (reasons == 0)
        {
            connection.pauseReads();
        }
        reasons |= reason;
    }

    void open(final int reason)
    {
        if ((reasons & reason) == 0)
        {
            return;
        }
        reasons &= ~reason;
        if (reasons == 0 && connection.isOpen())
        {
            connection.resumeReads();
        }
    }

    /** Stops reading until the reactor has run its queued callbacks: after this cycle's other I/O. */
    void yieldCycle()
    {
        close(YIELD);
        if (endYield == null)
        {
            endYield = () -> open(YIELD);
        }
        if (!connection.reactor().callAsync(endYield))
        {
            open(YIELD); // queue full: resume at the end of this cycle instead
        }
    }
}
