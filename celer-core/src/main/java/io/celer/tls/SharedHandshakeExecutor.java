package io.celer.tls;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The process's default handshake executor: half the available processors, at least one, of daemon threads made
 * on first use and ended after a minute idle, so that a process that stops shaking hands keeps none. Its queue
 * is unbounded: what bounds it is each server's {@link TlsConfig#maxConcurrentHandshakes} on each reactor, as a
 * handshake has at most one batch of tasks queued at a time.
 */
final class SharedHandshakeExecutor implements Executor
{
    static final SharedHandshakeExecutor INSTANCE = new SharedHandshakeExecutor();

    private static final long IDLE_SECONDS = 60;

    private SharedHandshakeExecutor()
    {
    }

    @Override
    public void execute(final Runnable task)
    {
        Pool.THREADS.execute(task);
    }

    /** Made by the first handshake that needs it, not by loading TlsConfig. */
    private static final class Pool
    {
        static final ExecutorService THREADS = make();

        private static ExecutorService make()
        {
            final int threads = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
            final AtomicInteger count = new AtomicInteger();
            final ThreadPoolExecutor executor = new ThreadPoolExecutor(threads, threads, IDLE_SECONDS,
                TimeUnit.SECONDS, new LinkedBlockingQueue<>(), task ->
                {
                    final Thread thread = new Thread(task, "celer-tls-handshake-" + count.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
            executor.allowCoreThreadTimeOut(true);
            return executor;
        }
    }
}
