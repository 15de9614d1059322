package io.celer.test;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Threads for tests' concurrent helpers: a test that blocks several tasks at once must not rely on the
 * common fork-join pool, which has a single thread on a two-core machine.
 */
public final class TestThreads
{
    private static final ExecutorService POOL = Executors.newCachedThreadPool(task ->
    {
        final Thread thread = new Thread(task, "celer-test-task");
        thread.setDaemon(true);
        return thread;
    });

    private TestThreads()
    {
    }

    /**
     * A pool that starts a thread for every task that finds none idle.
     *
     * @return the pool, shared by the tests of one JVM.
     */
    public static ExecutorService pool()
    {
        return POOL;
    }
}
