package io.celer.reactor;

import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.celer.reactor.internal.JfrEvents;
import io.celer.reactor.internal.Logs;

/**
 * The thread that logs reactors' stalls, once a second at most per reactor, so that no reactor thread formats
 * or writes a log line: one daemon thread per process, started with the first reactor, asleep but for a look
 * at each running reactor's stall count every second. It first asks JFR to tell {@link JfrEvents} when it
 * starts, which no reactor thread should wait for.
 */
final class StallLog
{
    private static final System.Logger LOG = System.getLogger(Reactor.class.getName());
    private static final long INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final CopyOnWriteArrayList<StallReporter> REPORTERS = new CopyOnWriteArrayList<>();
    private static Thread thread;

    private StallLog()
    {
    }

    /**
     * Watches a reactor's stalls until {@link #remove}; from the thread that builds the reactor.
     *
     * @param reporter the reactor's.
     */
    static synchronized void add(final StallReporter reporter)
    {
        REPORTERS.add(reporter);
        if (thread == null)
        {
            thread = new Thread(StallLog::run, "celer-stall-log");
            thread.setDaemon(true);
            thread.start();
        }
    }

    /**
     * Stops watching a reactor, logging its last stalls first.
     *
     * @param reporter the reactor's.
     */
    static void remove(final StallReporter reporter)
    {
        if (REPORTERS.remove(reporter))
        {
            reporter.logIfStalled();
        }
    }

    private static void run()
    {
        try
        {
            JfrEvents.watch();
        }
        catch (final Throwable t)
        {
            Logs.log(LOG, System.Logger.Level.WARNING, "JFR events unavailable: " + t);
        }
        while (true)
        {
            LockSupport.parkNanos(INTERVAL_NANOS);
            for (final StallReporter reporter : REPORTERS)
            {
                try
                {
                    reporter.logIfStalled();
                }
                catch (final Throwable t)
                {
                    Logs.log(LOG, System.Logger.Level.WARNING, "logging a stall failed", t);
                }
            }
        }
    }
}
