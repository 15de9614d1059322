package io.celer.tls;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.celer.reactor.internal.ThreadNiceness;

/**
 * The process's default handshake executor: half the available processors, at least one, of daemon threads,
 * all started by the first TLS server or client that opens, on its thread. Not later by a reactor: a thread
 * starts with the CPU affinity of the thread that starts it, and a pinned reactor's would keep the handshakes
 * on its own CPU. Its queue is unbounded: what bounds it is each server's
 * {@link TlsConfig#maxConcurrentHandshakes} on each reactor, as a handshake has at most one step queued at a
 * time.
 *
 * <p>Its threads run at the process's priority unless the system property {@code celer.tls.handshakeNice} gives
 * them a nice value from 1 to 19 (on Linux, where {@code renice} is installed). At 19, on a CPU they share with a
 * reactor that waits in its selector, the reactor's work for its established connections goes before the next
 * handshake's signature, rather than waiting for the kernel to cut that signature's time slice, and the
 * handshakes slow down instead. Not the default: next to a busy-spinning reactor on the same CPU, which never
 * yields, such a thread gets a few percent of it, and a first handshake in a cold JVM outlasts its timeout.
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
        nice(); // a bad value fails here, clearly, not as the pool's class failing to load
        Pool.THREADS.getPoolSize(); // loading Pool starts them
    }

    /**
     * The nice value of the pool's threads, from the system property; 0, the default, leaves them alone.
     *
     * @throws IllegalArgumentException if the property is not a number from 0 to 19.
     */
    static int nice()
    {
        final String value = System.getProperty("celer.tls.handshakeNice", "0");
        try
        {
            final int nice = Integer.parseInt(value.strip());
            if (nice >= 0 && nice <= 19)
            {
                return nice;
            }
        }
        catch (final NumberFormatException ex)
        {
            // said below
        }
        throw new IllegalArgumentException("celer.tls.handshakeNice must be from 0 to 19, not " + value);
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
            final int nice = nice();
            final AtomicInteger count = new AtomicInteger();
            final ThreadPoolExecutor executor = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), task ->
                {
                    final Thread thread = new Thread(() ->
                    {
                        if (nice > 0)
                        {
                            ThreadNiceness.setForCurrentThread(nice); // where it cannot, at the process's
                        }
                        task.run();
                    }, "celer-tls-handshake-" + count.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
            executor.prestartAllCoreThreads();
            return executor;
        }
    }
}
