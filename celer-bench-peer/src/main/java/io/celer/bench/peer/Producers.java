package io.celer.bench.peer;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import io.celer.queue.CarrierQueue;

/**
 * The application threads of the batching benchmark: each publishes its share of the messages into a
 * {@link MessageRing}, one message per claim and publish, as an application hands over each message it makes.
 *
 * <p>A full ring makes a producer wait: a short spin, then {@link Thread#yield()} between tries, so that a
 * producer sharing a CPU with the I/O thread lets it drain. Nothing is ever dropped.
 */
public final class Producers
{
    private static final int SPINS_BEFORE_YIELD = 64;

    private final Thread[] threads;
    private final CountDownLatch start = new CountDownLatch(1);
    private final AtomicLong waits = new AtomicLong();
    private final AtomicLong published = new AtomicLong();

    /**
     * Producer threads, started and waiting for {@link #go()}.
     *
     * @param ring     where they publish.
     * @param count    how many threads.
     * @param messages messages in all, split as evenly as they go.
     * @param template the message; each producer varies its last byte, as the Reactor processor article's producer varies the key.
     */
    public Producers(final MessageRing ring, final int count, final long messages, final byte[] template)
    {
        threads = new Thread[count];
        for (int i = 0; i < count; i++)
        {
            final long share = messages / count + (i < messages % count ? 1 : 0);
            threads[i] = new Thread(() -> publish(ring, share, template), "producer-" + i);
            threads[i].setDaemon(true);
            threads[i].start();
        }
    }

    private void publish(final MessageRing ring, final long share, final byte[] template)
    {
        final int length = template.length;
        final long[] waited = new long[1];
        final Runnable whileFull = () ->
        {
            // Spin a little, since the I/O thread usually frees carriers within microseconds, then yield.
            if (++waited[0] % SPINS_BEFORE_YIELD == 0)
            {
                Thread.yield();
            }
            else
            {
                Thread.onSpinWait();
            }
        };
        try
        {
            start.await();
        }
        catch (final InterruptedException ex)
        {
            return;
        }
        final CarrierQueue<MessageRing.Message> lane = ring.producerLane();
        for (long i = 0; i < share; i++)
        {
            final MessageRing.Message message = lane.claim(whileFull);
            System.arraycopy(template, 0, message.bytes, 0, length);
            message.bytes[length - 1] = (byte)(i % 9);
            message.length = length;
            lane.publish();
        }
        waits.addAndGet(waited[0]);
        published.addAndGet(share);
    }

    /**
     * Lets every producer start at once.
     */
    public void go()
    {
        start.countDown();
    }

    /**
     * Times the producers waited for a free carrier, known once they are done.
     *
     * @return the count of tries that found the ring full.
     */
    public long waits()
    {
        return waits.get();
    }

    /**
     * Messages the producers published, known once they are done.
     *
     * @return the count.
     */
    public long published()
    {
        return published.get();
    }

    /**
     * Waits for every producer to publish its share.
     *
     * @throws InterruptedException if interrupted.
     */
    public void join() throws InterruptedException
    {
        for (final Thread thread : threads)
        {
            thread.join();
        }
    }

    /**
     * The message the Reactor processor article publishes: a 24-byte memcached binary GETQ header and its key, the key stretched or
     * cut to fill {@code size} bytes (27 makes its 3-byte key).
     *
     * @param size the message size, at least 1.
     * @return the bytes.
     */
    public static byte[] getqMessage(final int size)
    {
        final byte[] header = {(byte)0x80, 0x09, 0, 3, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        final byte[] message = new byte[size];
        System.arraycopy(header, 0, message, 0, Math.min(size, header.length));
        if (size > header.length)
        {
            final int key = size - header.length;
            message[2] = (byte)(key >>> 8);
            message[3] = (byte)key;
            message[8] = (byte)(key >>> 24);
            message[9] = (byte)(key >>> 16);
            message[10] = (byte)(key >>> 8);
            message[11] = (byte)key;
            for (int i = header.length; i < size; i++)
            {
                message[i] = (byte)((i - header.length) % 2 == 0 ? 'e' : 'o');
            }
        }
        return message;
    }
}
