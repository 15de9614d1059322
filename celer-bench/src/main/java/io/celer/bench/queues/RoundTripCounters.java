package io.celer.bench.queues;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Per iteration of a round-trip benchmark: round trips made, and bytes the pinging and the answering thread
 * allocated meanwhile.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class RoundTripCounters
{
    /** Round trips completed. */
    public long roundTrips;

    /** Bytes both threads allocated in the iteration. */
    public long allocatedBytes;

    /** The thread that answers the running benchmark's round trips (a fork runs one benchmark). */
    static volatile Thread farEnd;

    private long pingAtStart;
    private long echoAtStart;

    /**
     * Starts an iteration's count.
     */
    @Setup(Level.Iteration)
    public void start()
    {
        roundTrips = 0;
        allocatedBytes = 0;
        pingAtStart = Allocation.ofCurrentThread();
        echoAtStart = Allocation.of(farEnd);
    }

    /**
     * Ends it.
     */
    @TearDown(Level.Iteration)
    public void stop()
    {
        allocatedBytes = Allocation.ofCurrentThread() - pingAtStart + Allocation.of(farEnd) - echoAtStart;
    }
}
