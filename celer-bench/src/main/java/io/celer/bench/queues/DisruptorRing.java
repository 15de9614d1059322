package io.celer.bench.queues;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;

import com.lmax.disruptor.EventPoller;
import com.lmax.disruptor.RingBuffer;

/**
 * The state of a throughput benchmark on the Disruptor: a ring read through a poller that gates it. A subclass,
 * the {@code @State}, makes the ring, single- or multi-producer.
 */
public abstract class DisruptorRing
{
    /** The ring. */
    RingBuffer<Message> ring;

    /** The consumer's poller. */
    EventPoller<Message> poller;

    /** The consumer's reader. */
    Reader reader;

    /**
     * A new ring.
     *
     * @return the ring.
     */
    abstract RingBuffer<Message> newRing();

    /** Builds the ring and its poller. */
    @Setup(Level.Trial)
    public void setup()
    {
        ring = newRing();
        poller = ring.newPoller();
        ring.addGatingSequences(poller.getSequence());
        reader = new Reader(null, OneToOneThroughput.BATCH);
    }
}
