package io.celer.bench.queues;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Control;

/**
 * Per thread of a throughput benchmark, per iteration: messages the consumer took while JMH measured, and bytes
 * each thread allocated.
 *
 * <p>Raw counts, not JMH's per-thread rates: a consumer descheduled as its iteration starts would time only the
 * moment it spends draining a full queue, and report billions of messages a second. The harness divides the
 * count by the iteration's length instead.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class ThroughputCounters
{
    /** Messages taken by the consumer while measuring; producers leave it at 0. */
    public long messages;

    /**
     * Consumer calls that took at least one message while measuring: messages over takes says how far behind the
     * producer the consumer ran, one message a take being a consumer right on the producer's heels.
     */
    public long takes;

    /** Bytes this thread allocated in the iteration, its unmeasured start and end included. */
    public long allocatedBytes;

    private long allocatedAtStart;

    /**
     * Starts an iteration's count.
     */
    @Setup(Level.Iteration)
    public void start()
    {
        messages = 0;
        takes = 0;
        allocatedBytes = 0;
        allocatedAtStart = Allocation.ofCurrentThread();
    }

    /**
     * Counts messages taken, only while JMH measures: the benchmark method also runs while the threads of a
     * group wait for each other before and after.
     *
     * @param control JMH's view of the iteration.
     * @param taken   messages just taken.
     * @return {@code taken}, for the benchmark method to return.
     */
    int count(final Control control, final int taken)
    {
        if (control.startMeasurement && !control.stopMeasurement)
        {
            messages += taken;
            if (taken > 0)
            {
                takes++;
            }
        }
        return taken;
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
