package io.celer.bench.peer;

import java.util.function.Consumer;

import io.celer.queue.CarrierMux;
import io.celer.queue.CarrierQueue;

/**
 * The ring between the application threads and the I/O thread of the batching benchmark: pre-allocated
 * carriers of message bytes, a {@link CarrierQueue} for one producer, a {@link CarrierMux} (a lane per
 * producer) for several. Each producer keeps its {@link #producerLane()}. Nothing is allocated once every producer
 * has claimed its lane.
 */
public final class MessageRing
{
    /**
     * One message in the ring, filled by a producer and read by the I/O thread.
     */
    public static final class Message
    {
        /** The message bytes, {@link #length} of them used. */
        public final byte[] bytes;

        /** How many of the bytes are the message. */
        public int length;

        Message(final int capacity)
        {
            this.bytes = new byte[capacity];
        }
    }

    private final CarrierQueue<Message> queue;
    private final CarrierMux<Message> mux;
    private final int lanes;

    /**
     * A ring.
     *
     * @param producers    producer threads; each gets a lane of its own when more than one.
     * @param laneCapacity carriers per lane.
     * @param messageSize  the largest message.
     */
    public MessageRing(final int producers, final int laneCapacity, final int messageSize)
    {
        this.lanes = producers;
        this.queue = producers == 1 ? new CarrierQueue<>(laneCapacity, () -> new Message(messageSize)) : null;
        this.mux = producers == 1 ? null : new CarrierMux<>(laneCapacity, () -> new Message(messageSize), producers);
    }

    /**
     * Producer: the calling thread's lane, to keep and claim from for every message, so that no message pays the
     * mux's lookup of the calling thread.
     *
     * @return the one queue with one producer, else this thread's lane of the mux (registered on first call).
     */
    public CarrierQueue<Message> producerLane()
    {
        return queue != null ? queue : mux.producerLane();
    }

    /**
     * I/O thread: hands published messages to an action and gives their carriers back.
     *
     * @param action       called once per message, in order per producer.
     * @param limitPerLane the most messages to take from each producer's lane.
     * @return how many were taken.
     */
    public int drain(final Consumer<Message> action, final int limitPerLane)
    {
        return queue != null ? queue.drain(action, limitPerLane) : mux.drain(action, limitPerLane);
    }

    /**
     * How many lanes a drain visits.
     *
     * @return the number of producers.
     */
    public int lanes()
    {
        return lanes;
    }
}
