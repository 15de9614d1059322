package io.celer.tls;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The process's default handshake executor: half the available processors, at least one, of daemon threads,
 * all started by the first TLS server or client that opens, on its thread. Not later by a reactor: a thread
 * starts with the CPU affinity of the thread that starts it, and a pinned reactor's would keep the handshakes
 * on its own CPU. Its queue is unbounded: what bounds it is each server's
 * {@link TlsConfig#maxConcurrentHandshakes} on each reactor, as a handshake has at most one batch of tasks
 * queued at a time.
 */
final class SharedHandshakeExecutor implements Executor
{
    static final SharedHandshakeExecutor INSTANCE = new SharedHandshakeExecutor();

    private SharedHandshakeExecutor()
    {
    }

    /**
     * Starts the threads, if no server or client did before; from the thread that opens one.
     */
    void start()
    {
        Pool.THREADS.getPoolSize(); // loading Pool starts them
    }

    @Override
    public void execute(final Runnable task)
    {
        Pool.THREADS.execute(task);
    }

    /** Made when the first TLS server or client opens, not when TlsConfig loads. */
    private static final class Pool
    {
        static final ThreadPoolExecutor THREADS = make();

        private static ThreadPoolExecutor make()
        {
            final int threads = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
            final AtomicInteger count = new AtomicInteger();
            final ThreadPoolExecutor executor = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), task ->
                {
                    final Thread thread = new Thread(task, "celer-tls-handshake-" + count.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
            executor.prestartAllCoreThreads();
            return executor;
        }
    }
}
