package io.celer.bench.queues;

import com.lmax.disruptor.EventPoller;
import com.lmax.disruptor.InsufficientCapacityException;
import com.lmax.disruptor.RingBuffer;

import io.celer.queue.CarrierQueue;

/**
 * The producer and consumer steps that {@link OneToOneThroughput} and {@link ManyToOneThroughput} share.
 *
 * <p>Each step is static and calls the same classes whichever benchmark inlines it ({@link CarrierQueue},
 * {@link MessagePool}, the Disruptor's ring and poller), so every benchmark method stays monomorphic. A call on
 * a queue whose class differs between benchmarks (Agrona's or JCTools' offer and drain) is not here: each
 * benchmark method makes it itself, on its queue's own class.
 */
final class ThroughputCalls
{
    private ThroughputCalls()
    {
    }

    /**
     * Claims, fills and publishes one carrier, if the queue has room.
     *
     * @param queue  the queue, or a producer's lane of a mux.
     * @param sender the producer's fields.
     * @return whether it was sent.
     */
    static boolean sendCarrier(final CarrierQueue<Message> queue, final Sender sender)
    {
        final Message message = queue.claim();
        if (message == null)
        {
            return false;
        }
        message.value = sender.next++;
        queue.publish();
        return true;
    }

    /**
     * Takes a message from a pool and fills it, for the caller to offer.
     *
     * @param pool   the producer's pool.
     * @param sender the producer's fields.
     * @return the message, or null when all are out.
     */
    static Message takeFilled(final MessagePool<Message> pool, final Sender sender)
    {
        final Message message = pool.take();
        if (message != null)
        {
            message.value = sender.next++;
        }
        return message;
    }

    /**
     * Sends a value if the ring has room.
     *
     * @param ring  the ring.
     * @param value what to send.
     * @return whether it was sent.
     */
    static boolean sendEvent(final RingBuffer<Message> ring, final long value)
    {
        final long sequence;
        try
        {
            sequence = ring.tryNext();
        }
        catch (final InsufficientCapacityException full)
        {
            // A shared instance without a stack trace: a full ring allocates nothing.
            return false;
        }
        ring.get(sequence).value = value;
        ring.publish(sequence);
        return true;
    }

    /**
     * Takes up to the reader's limit of events.
     *
     * @param poller the poller.
     * @param reader the reader.
     * @return how many it took.
     * @throws Exception never: the reader does not throw.
     */
    static int pollEvents(final EventPoller<Message> poller, final Reader reader) throws Exception
    {
        reader.startPoll();
        poller.poll(reader);
        return reader.polled();
    }
}
