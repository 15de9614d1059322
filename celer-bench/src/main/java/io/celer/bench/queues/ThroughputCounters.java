package io.celer.bench.queues;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Per thread of a throughput benchmark: messages the consumer took and bytes each thread allocated, both per
 * second, so that their ratio is bytes per message.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.OPERATIONS)
public class ThroughputCounters
{
    /** Messages taken by the consumer; producers leave it at 0. */
    public long messages;

    /** Bytes this thread allocated in the iteration. */
    public long allocatedBytes;

    private long allocatedAtStart;

    /**
     * Starts an iteration's count.
     */
    @Setup(Level.Iteration)
    public void start()
    {
        messages = 0;
        allocatedBytes = 0;
        allocatedAtStart = Allocation.ofCurrentThread();
    }

    /**
     * Ends it.
     */
    @TearDown(Level.Iteration)
    public void stop()
    {
        allocatedBytes = Allocation.ofCurrentThread() - allocatedAtStart;
    }
}
