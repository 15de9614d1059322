package io.celer.bench.queues;

import java.util.function.Consumer;

import org.jctools.queues.MessagePassingQueue;

import com.lmax.disruptor.EventPoller;

/**
 * The reader's fields, which only the consuming thread writes.
 */
abstract class ReaderFields extends PadHead
{
    long sum;
    int polled;
}

/**
 * Padding after them.
 */
abstract class ReaderPadTail extends ReaderFields
{
    long p16, p17, p18, p19, p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p30;
}

/**
 * The consuming thread's handler for every queue: reads each message and gives pooled ones back to their pool.
 * One object serves Celer's and Agrona's drains, JCTools' drain and the Disruptor's poller.
 */
final class Reader extends ReaderPadTail
    implements Consumer<Message>, MessagePassingQueue.Consumer<Message>, EventPoller.Handler<Message>
{
    private final MessagePool<Message>[] pools;
    private final int limit;

    /**
     * A reader.
     *
     * @param pools the senders' pools by owner, or null for carriers that stay in their queue.
     * @param limit the most messages one poll of the Disruptor takes, as the others' drains are limited.
     */
    Reader(final MessagePool<Message>[] pools, final int limit)
    {
        this.pools = pools;
        this.limit = limit;
    }

    @Override
    public void accept(final Message message)
    {
        sum += message.value;
        if (pools != null)
        {
            pools[message.owner].giveBack(message);
        }
    }

    @Override
    public boolean onEvent(final Message message, final long sequence, final boolean endOfBatch)
    {
        sum += message.value;
        return ++polled < limit;
    }

    /**
     * Before a poll of the Disruptor: none taken yet.
     */
    void startPoll()
    {
        polled = 0;
    }

    /**
     * After a poll of the Disruptor.
     *
     * @return how many it took.
     */
    int polled()
    {
        return polled;
    }

    /**
     * The sum of what was read, so that reading cannot be optimised away.
     *
     * @return the sum.
     */
    long sum()
    {
        return sum;
    }
}
