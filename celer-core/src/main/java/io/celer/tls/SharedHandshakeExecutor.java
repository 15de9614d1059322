package io.celer.tls;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.celer.reactor.internal.SpinningReactors;
import io.celer.reactor.internal.ThreadNiceness;

/**
 * The process's default handshake executor: two pools of half the available processors each, at least one, of
 * daemon threads, both started by the first TLS server or client that opens, on its thread. Not later by a
 * reactor: a thread starts with the CPU affinity of the thread that starts it, and a pinned reactor's would keep
 * the handshakes on its own CPU. Their queues are unbounded: what bounds them is each server's
 * {@link TlsConfig#maxConcurrentHandshakes} on each reactor, as a handshake has at most one step queued at a
 * time.
 *
 * <p>A step goes to the background pool while none of the process's reactors spins ({@link SpinningReactors}):
 * its threads run at nice 19 once each has run {@link #WARM_STEPS} steps. On a CPU they share with a reactor that
 * waits in its selector, the reactor's work for its established connections then goes before the next
 * handshake's signature, rather than waiting for the kernel to cut that signature's time slice, and the
 * handshakes slow down instead. While a reactor spins, steps go to the other pool, at the process's priority:
 * next to a reactor that never yields its CPU a nice 19 thread gets a few percent of it. The first steps run at
 * the process's priority too, as a cold JVM interprets and compiles the TLS code, which takes seconds of CPU time
 * that a low priority would stretch past a handshake's timeout on a busy machine.
 *
 * <p>The system property {@code celer.tls.handshakeNice} sets one nice value for every thread of both pools
 * from their start instead: 0 for the process's priority, up to 19 (on Linux, where {@code renice} is installed).
 */
final class SharedHandshakeExecutor implements Executor
{
    static final SharedHandshakeExecutor INSTANCE = new SharedHandshakeExecutor();

    /** Steps a background thread runs at the process's priority before it lowers its own. */
    static final int WARM_STEPS = 1_000;

    /** The background pool's nice value once warm. */
    static final int BACKGROUND_NICE = 19;

    /** {@link #nice()} when the property is not set. */
    static final int ADAPTIVE = -1;

    private SharedHandshakeExecutor()
    {
    }

    /**
     * Starts the threads, if no server or client did before; from the thread that opens one.
     */
    void start()
    {
        nice(); // a bad value fails here, clearly, not as the pools' class failing to load
        Pools.FOREGROUND.getPoolSize(); // loading Pools starts them
    }

    /**
     * The nice value of every thread, from the system property, or {@link #ADAPTIVE} where it is not set.
     *
     * @throws IllegalArgumentException if the property is not a number from 0 to 19.
     */
    static int nice()
    {
        final String value = System.getProperty("celer.tls.handshakeNice");
        if (value == null)
        {
            return ADAPTIVE;
        }
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
        (SpinningReactors.any() ? Pools.FOREGROUND : Pools.BACKGROUND).execute(task);
    }

    /** Made when the first TLS server or client opens, not when TlsConfig loads. */
    private static final class Pools
    {
        static final int THREADS = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
        static final ThreadPoolExecutor FOREGROUND = pool("celer-tls-handshake-", THREADS, nice(), 0);
        static final ThreadPoolExecutor BACKGROUND = nice() == ADAPTIVE ?
            pool("celer-tls-handshake-background-", THREADS, BACKGROUND_NICE, WARM_STEPS) : FOREGROUND;
    }

    /**
     * A pool whose threads lower their priority to {@code nice} after {@code warmSteps} steps each; never for a
     * nice value below 1.
     */
    static ThreadPoolExecutor pool(final String name, final int threads, final int nice, final int warmSteps)
    {
        final AtomicInteger count = new AtomicInteger();
        final ThreadPoolExecutor executor = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(), task ->
            {
                final Thread thread = new HandshakeThread(task, name + count.incrementAndGet());
                thread.setDaemon(true);
                return thread;
            })
        {
            @Override
            protected void beforeExecute(final Thread thread, final Runnable step)
            {
                ((HandshakeThread)thread).beforeStep(nice, warmSteps);
            }
        };
        executor.prestartAllCoreThreads();
        return executor;
    }

    /** A pool's thread, which counts its steps to know when it is warm. */
    private static final class HandshakeThread extends Thread
    {
        private int steps;

        HandshakeThread(final Runnable worker, final String name)
        {
            super(worker, name);
        }

        /** On this thread, before each step. */
        void beforeStep(final int nice, final int warmSteps)
        {
            if (steps <= warmSteps && steps++ == warmSteps && nice > 0)
            {
                ThreadNiceness.setForCurrentThread(nice); // where it cannot, at the process's priority
            }
        }
    }
}
