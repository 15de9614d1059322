package io.celer.bench.queues;

import java.util.Queue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;

/**
 * The state of a throughput benchmark whose queue carries references (Agrona's, JCTools'): the queue, a pool per
 * producer its messages come from, and the consumer's reader that gives them back. A subclass, the
 * {@code @State}, says how to make the queue.
 *
 * @param <Q> the queue's class, kept so that the benchmarks call it directly.
 */
public abstract class PooledQueue<Q extends Queue<Message>>
{
    /** The queue. */
    Q queue;

    /** The pools, one per producer; message values say which. */
    MessagePool<Message>[] pools;

    /** The first pool, the only one with one producer. */
    MessagePool<Message> pool;

    /** The consumer's reader, giving each message back to its pool. */
    Reader reader;

    private final int producers;
    private final Supplier<Q> newQueue;
    private final AtomicInteger joined = new AtomicInteger();

    /**
     * A state.
     *
     * @param producers the producer threads, each with a pool of {@link OneToOneThroughput#CAPACITY} messages.
     * @param newQueue  makes a new, empty queue, large enough for every pool's messages.
     */
    protected PooledQueue(final int producers, final Supplier<Q> newQueue)
    {
        this.producers = producers;
        this.newQueue = newQueue;
    }

    /** Builds the queue and the pools. */
    @Setup(Level.Trial)
    @SuppressWarnings("unchecked")
    public void setup()
    {
        queue = newQueue.get();
        pools = new MessagePool[producers];
        for (int i = 0; i < producers; i++)
        {
            final int owner = i;
            pools[i] = new MessagePool<>(OneToOneThroughput.CAPACITY, () -> new Message(owner));
        }
        pool = pools[0];
        reader = new Reader(pools, OneToOneThroughput.BATCH);
    }

    /**
     * The pool of a producer, handed out as each joins.
     *
     * @param sender the producer's fields.
     * @return its pool.
     */
    MessagePool<Message> of(final Sender sender)
    {
        final MessagePool<Message> own = sender.pool;
        return own != null ? own : (sender.pool = pools[joined.getAndIncrement()]);
    }
}
