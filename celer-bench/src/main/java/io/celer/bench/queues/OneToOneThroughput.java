package io.celer.bench.queues;

import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.OneToOneConcurrentArrayQueue;
import org.jctools.queues.SpscArrayQueue;
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

import io.celer.queue.CarrierQueue;

/**
 * One producer thread, one consumer thread: how many messages per second get across. The producer sends one
 * message per call and gives up when the queue is full; the consumer drains up to {@link #BATCH} per call. The
 * rate is what the consumer took while JMH measured ({@link ThroughputCounters#messages}) over the iteration's
 * length.
 *
 * <p>Celer's carriers and the Disruptor's events stay in their rings; Agrona and JCTools carry references, so
 * their producer takes each message from a {@link MessagePool} and the consumer gives it back.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class OneToOneThroughput
{
    /**
     * Slots in every queue, and objects in every pool: enough that a producer descheduled for a moment does not
     * leave its consumer idle at once, small enough that the messages stay in the caches.
     */
    static final int CAPACITY = 8192;

    /** The most messages one consumer call takes. */
    static final int BATCH = 256;

    /** Celer's one-to-one carrier queue. */
    @State(Scope.Group)
    public static class Celer
    {
        CarrierQueue<Message> queue;
        Reader reader;

        /** Builds the queue. */
        @Setup(Level.Trial)
        public void setup()
        {
            queue = new CarrierQueue<>(CAPACITY, Message::new);
            reader = new Reader(null, BATCH);
        }
    }

    /**
     * Producer: claims, fills and publishes one carrier.
     *
     * @param state    the queue.
     * @param sender   this producer's fields.
     * @param counters this thread's allocation.
     * @return whether it was sent.
     */
    @Benchmark
    @Group("celer")
    @GroupThreads(1)
    public boolean celerSend(final Celer state, final Sender sender, final ThroughputCounters counters)
    {
        return ThroughputCalls.sendCarrier(state.queue, sender);
    }

    /**
     * Consumer: drains a batch.
     *
     * @param state    the queue.
     * @param counters where messages are counted.
     * @param control  tells whether JMH is measuring.
     * @return how many it took.
     */
    @Benchmark
    @Group("celer")
    @GroupThreads(1)
    public int celerReceive(final Celer state, final ThroughputCounters counters, final Control control)
    {
        return counters.count(control, state.queue.drain(state.reader, BATCH));
    }

    /** Agrona's one-to-one queue, with a pool. */
    @State(Scope.Group)
    public static class Agrona extends PooledQueue<OneToOneConcurrentArrayQueue<Message>>
    {
        /** A state of one producer. */
        public Agrona()
        {
            super(1, () -> new OneToOneConcurrentArrayQueue<>(CAPACITY));
        }
    }

    /**
     * Producer: takes a message from the pool, fills and offers it.
     *
     * @param state    the queue.
     * @param sender   this producer's fields.
     * @param counters this thread's allocation.
     * @return whether it was sent.
     */
    @Benchmark
    @Group("agrona")
    @GroupThreads(1)
    public boolean agronaSend(final Agrona state, final Sender sender, final ThroughputCounters counters)
    {
        final Message message = ThroughputCalls.takeFilled(state.pool, sender);
        // The pool holds no more than the queue, so the offer cannot fail.
        return message != null && state.queue.offer(message);
    }

    /**
     * Consumer: drains a batch, giving each message back.
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

    /** JCTools' single-producer single-consumer queue, with a pool. */
    @State(Scope.Group)
    public static class JcTools extends PooledQueue<SpscArrayQueue<Message>>
    {
        /** A state of one producer. */
        public JcTools()
        {
            super(1, () -> new SpscArrayQueue<>(CAPACITY));
        }
    }

    /**
     * Producer: takes a message from the pool, fills and offers it.
     *
     * @param state    the queue.
     * @param sender   this producer's fields.
     * @param counters this thread's allocation.
     * @return whether it was sent.
     */
    @Benchmark
    @Group("jctools")
    @GroupThreads(1)
    public boolean jctoolsSend(final JcTools state, final Sender sender, final ThroughputCounters counters)
    {
        final Message message = ThroughputCalls.takeFilled(state.pool, sender);
        return message != null && state.queue.offer(message);
    }

    /**
     * Consumer: drains a batch, giving each message back.
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

    /** The Disruptor's single-producer ring, read through a poller. */
    @State(Scope.Group)
    public static class Disruptor extends DisruptorRing
    {
        @Override
        RingBuffer<Message> newRing()
        {
            return RingBuffer.createSingleProducer(Message::new, CAPACITY);
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
    @GroupThreads(1)
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
