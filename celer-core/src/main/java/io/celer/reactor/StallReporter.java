package io.celer.reactor;

import java.util.Locale;

import io.celer.counters.Counter;
import io.celer.counters.CounterScope;
import io.celer.reactor.internal.Logs;
import io.celer.reactor.internal.StallCulprit;
import io.celer.reactor.internal.StallEvent;

/**
 * Names the culprit of a stalled cycle (the class of what ran longest in it) in three places: counters per
 * culprit, tagged {@code culprit=<class>} ({@code reactor.stall.culprits}, the stalls charged to it, and
 * {@code reactor.stall.culprit.nanos}, the longest it ran in one), a warning logged at most once a second, and a
 * JFR {@code io.celer.Stall} event while a recording wants it.
 *
 * <p>Runs on the reactor thread. A culprit's counters are made the first time it stalls a cycle, up to
 * {@link #MAX_CULPRITS}; after that a stall allocates nothing but its log line, once a second at most.
 */
final class StallReporter
{
    /** Culprits with counters of their own; further ones share {@code culprit=other}. */
    static final int MAX_CULPRITS = 16;
    static final long LOG_INTERVAL_NANOS = 1_000_000_000L;

    private static final System.Logger LOG = System.getLogger(Reactor.class.getName());

    private final String reactor;
    private final CounterScope scope;
    private final long thresholdNanos;
    private final Class<?>[] culprits = new Class<?>[MAX_CULPRITS];
    private final Counter[] stalls = new Counter[MAX_CULPRITS + 1];
    private final Counter[] culpritNanos = new Counter[MAX_CULPRITS + 1];
    private int known;
    private boolean logged;
    private long loggedAtNanos;
    private long stallsSinceLog;

    StallReporter(final CounterScope scope, final long thresholdNanos)
    {
        this.reactor = scope.name();
        this.scope = scope;
        this.thresholdNanos = thresholdNanos;
    }

    /**
     * Reports a stalled cycle.
     *
     * @param cycleNanos the cycle's length.
     * @param work       what ran longest in it, or null when nothing did.
     * @param workNanos  its time.
     * @param nowNanos   {@code System.nanoTime()} at the cycle's end.
     */
    void stalled(final long cycleNanos, final Object work, final long workNanos, final long nowNanos)
    {
        try
        {
            final Class<?> culprit = StallCulprit.classOf(work);
            final int slot = slotOf(culprit);
            stalls[slot].increment();
            culpritNanos[slot].max(workNanos);
            stallsSinceLog++;
            if (!logged || nowNanos - loggedAtNanos >= LOG_INTERVAL_NANOS)
            {
                log(cycleNanos, culprit, workNanos);
                logged = true;
                loggedAtNanos = nowNanos;
                stallsSinceLog = 0;
            }
            StallEvent.commit(reactor, cycleNanos, culprit, workNanos);
        }
        catch (final Throwable t)
        {
            // A report is not worth the reactor: a culprit() that throws, say, loses this one only.
            Logs.log(LOG, System.Logger.Level.WARNING, "reporting a stall of reactor " + reactor + " failed", t);
        }
    }

    private void log(final long cycleNanos, final Class<?> culprit, final long workNanos)
    {
        if (!LOG.isLoggable(System.Logger.Level.WARNING))
        {
            return;
        }
        Logs.log(LOG, System.Logger.Level.WARNING, String.format(Locale.ROOT,
            "reactor %s stalled: a cycle took %.3f ms, %.3f ms of it in %s; %d stalls (cycles over %.3f ms) " +
            "since the last such line, this one included", reactor, cycleNanos / 1e6, workNanos / 1e6,
            nameOf(culprit), stallsSinceLog, thresholdNanos / 1e6));
    }

    private int slotOf(final Class<?> culprit)
    {
        for (int i = 0; i < known; i++)
        {
            if (culprits[i] == culprit)
            {
                return i;
            }
        }
        if (known == MAX_CULPRITS)
        {
            if (stalls[known] == null)
            {
                register(known, "other");
            }
            return known;
        }
        culprits[known] = culprit;
        register(known, nameOf(culprit));
        return known++;
    }

    private void register(final int slot, final String name)
    {
        stalls[slot] = scope.total("reactor.stall.culprits", "culprit=" + name);
        culpritNanos[slot] = scope.gauge("reactor.stall.culprit.nanos", "culprit=" + name);
    }

    private static String nameOf(final Class<?> culprit)
    {
        return culprit == null ? "unknown" : culprit.getName();
    }
}
