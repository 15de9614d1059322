package io.celer.test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * The writing threads of the many-producer tests: one thread per producer, each running the same body with
 * its producer number.
 */
public final class ProducerThreads
{
    private ProducerThreads()
    {
    }

    /**
     * Starts every producer at once.
     *
     * @param producers how many.
     * @param body      what each runs, given its number from 0.
     * @return the started threads, for {@link #join(List, long)}.
     */
    public static List<Thread> start(final int producers, final IntConsumer body)
    {
        final List<Thread> threads = new ArrayList<>(producers);
        for (int p = 0; p < producers; p++)
        {
            threads.add(producer(p, body));
        }
        threads.forEach(Thread::start);
        return threads;
    }

    /**
     * Runs the producers one after the other, each on a thread of its own: lanes filled in a known order.
     *
     * @param producers how many.
     * @param body      what each runs, given its number from 0.
     * @param millis    how long to wait for each.
     * @throws InterruptedException if interrupted while waiting.
     */
    public static void runInTurn(final int producers, final IntConsumer body, final long millis)
        throws InterruptedException
    {
        for (int p = 0; p < producers; p++)
        {
            final Thread thread = producer(p, body);
            thread.start();
            thread.join(millis);
        }
    }

    /**
     * Waits for the threads to end.
     *
     * @param threads what {@link #start(int, IntConsumer)} returned.
     * @param millis  how long to wait for each.
     * @throws InterruptedException if interrupted while waiting.
     */
    public static void join(final List<Thread> threads, final long millis) throws InterruptedException
    {
        for (final Thread thread : threads)
        {
            thread.join(millis);
        }
    }

    private static Thread producer(final int producer, final IntConsumer body)
    {
        return new Thread(() -> body.accept(producer), "producer-" + producer);
    }
}
