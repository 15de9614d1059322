package io.celer.bench.queues;

import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.jctools.queues.MpscArrayQueue;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Control;

import com.lmax.disruptor.RingBuffer;

import io.celer.queue.CarrierMux;
import io.celer.queue.CarrierQueue;

/**
 * {@value #PRODUCERS} producer threads, one consumer thread: how many messages per second get across, as in
 * {@link OneToOneThroughput}. Every implementation holds {@value #PRODUCERS} x {@link OneToOneThroughput#CAPACITY}
 * messages: Celer's mux as a lane of that size per producer, the others as one queue twice that size, with one
 * pool per producer for the queues that carry references.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ManyToOneThroughput
{
    /** Producer threads. */
    static final int PRODUCERS = 2;

    private static final int LANE = OneToOneThroughput.CAPACITY;
    private static final int BATCH = OneToOneThroughput.BATCH;

    /** Celer's many-to-one mux, a lane per producer. */
    @State(Scope.Group)
    public static class Celer
    {
        CarrierMux<Message> mux;
        Reader reader;

        /** Builds the mux. */
        @Setup(Level.Trial)
        public void setup()
        {
            mux = new CarrierMux<>(LANE, Message::new, PRODUCERS);
            reader = new Reader(null, BATCH);
        }
    }

    /**
     * Producer: claims, fills and publishes one carrier of its lane.
     *
     * @param state    the mux.
     * @param sender   this producer's fields.
     * @param counters this thread's allocation.
     * @return whether it was sent.
     */
    @Benchmark
    @Group("celer")
    @GroupThreads(PRODUCERS)
    public boolean celerSend(final Celer state, final Sender sender, final ThroughputCounters counters)
    {
        // The lane fetched once per thread, as a producer would keep it: no thread lookup per message.
        CarrierQueue<Message> lane = sender.lane;
        if (lane == null)
        {
            lane = sender.lane = state.mux.producerLane();
        }
        return ThroughputCalls.sendCarrier(lane, sender);
    }

    /**
     * Consumer: drains a batch from each lane.
     *
     * @param state    the mux.
     * @param counters where messages are counted.
     * @param control  tells whether JMH is measuring.
     * @return how many it took.
     */
    @Benchmark
    @Group("celer")
    @GroupThreads(1)
    public int celerReceive(final Celer state, final ThroughputCounters counters, final Control control)
    {
        // The mux takes its limit per lane: split the batch so a call takes no more than the others'.
        return counters.count(control, state.mux.drain(state.reader, BATCH / PRODUCERS));
    }

    /** Agrona's many-to-one queue, with a pool per producer. */
    @State(Scope.Group)
    public static class Agrona extends PooledQueue<ManyToOneConcurrentArrayQueue<Message>>
    {
        /** A state of {@value #PRODUCERS} producers. */
        public Agrona()
        {
            super(PRODUCERS, () -> new ManyToOneConcurrentArrayQueue<>(PRODUCERS * LANE));
        }
    }


    /**
     * Producer: takes a message from its pool, fills and offers it.
     *
     * @param state    the queue.
     * @param sender   this producer's fields.
     * @param counters this thread's allocation.
     * @return whether it was sent.
     */
    @Benchmark
    @Group("agrona")
    @GroupThreads(PRODUCERS)
    public boolean agronaSend(final Agrona state, final Sender sender, final ThroughputCounters counters)
    {
        final Message message = ThroughputCalls.takeFilled(state.of(sender), sender);
        // The pools hold no more than the queue, so the offer cannot fail.
        return message != null && state.queue.offer(message);
    }

    /**
     * Consumer: drains a batch, giving each message back to its pool.
     *
     * @param state    the queue.
     * @param counters where messages are counted.
     * @param control  tells whether JMH is measuring.
     * @return how many it took.
     */
    @Benchmark
    @Group("agrona")
    @GroupThreads(1)
    public int agronaReceive(final Agrona state, final ThroughputCounters counters, final Control control)
    {
        return counters.count(control, state.queue.drain(state.reader, BATCH));
    }

    /** JCTools' multi-producer single-consumer queue, with a pool per producer. */
    @State(Scope.Group)
    public static class JcTools extends PooledQueue<MpscArrayQueue<Message>>
    {
        /** A state of {@value #PRODUCERS} producers. */
        public JcTools()
        {
            super(PRODUCERS, () -> new MpscArrayQueue<>(PRODUCERS * LANE));
        }
    }


    /**
     * Producer: takes a message from its pool, fills and offers it.
     *
     * @param state    the queue.
     * @param sender   this producer's fields.
     * @param counters this thread's allocation.
     * @return whether it was sent.
     */
    @Benchmark
    @Group("jctools")
    @GroupThreads(PRODUCERS)
    public boolean jctoolsSend(final JcTools state, final Sender sender, final ThroughputCounters counters)
    {
        final Message message = ThroughputCalls.takeFilled(state.of(sender), sender);
        return message != null && state.queue.offer(message);
    }

    /**
     * Consumer: drains a batch, giving each message back to its pool.
     *
     * @param state    the queue.
     * @param counters where messages are counted.
     * @param control  tells whether JMH is measuring.
     * @return how many it took.
     */
    @Benchmark
    @Group("jctools")
    @GroupThreads(1)
    public int jctoolsReceive(final JcTools state, final ThroughputCounters counters, final Control control)
    {
        return counters.count(control, state.queue.drain(state.reader, BATCH));
    }

    /** The Disruptor's multi-producer ring, read through a poller. */
    @State(Scope.Group)
    public static class Disruptor extends DisruptorRing
    {
        @Override
        RingBuffer<Message> newRing()
        {
            return RingBuffer.createMultiProducer(Message::new, PRODUCERS * LANE);
        }
    }


    /**
     * Producer: claims, fills and publishes one event.
     *
     * @param state    the ring.
     * @param sender   this producer's fields.
     * @param counters this thread's allocation.
     * @return whether it was sent.
     */
    @Benchmark
    @Group("disruptor")
    @GroupThreads(PRODUCERS)
    public boolean disruptorSend(final Disruptor state, final Sender sender, final ThroughputCounters counters)
    {
        return ThroughputCalls.sendEvent(state.ring, sender.next++);
    }

    /**
     * Consumer: polls a batch.
     *
     * @param state    the ring.
     * @param counters where messages are counted.
     * @param control  tells whether JMH is measuring.
     * @return how many it took.
     * @throws Exception never: the reader does not throw.
     */
    @Benchmark
    @Group("disruptor")
    @GroupThreads(1)
    public int disruptorReceive(final Disruptor state, final ThroughputCounters counters, final Control control)
        throws Exception
    {
        return counters.count(control, ThroughputCalls.pollEvents(state.poller, state.reader));
    }
}
