package io.celer.reactor;

import java.lang.invoke.VarHandle;
import java.util.Locale;

import io.celer.counters.Counter;
import io.celer.counters.CounterScope;
import io.celer.reactor.internal.JfrEvents;
import io.celer.reactor.internal.Logs;
import io.celer.reactor.internal.StallCulprit;
import io.celer.reactor.internal.StallEvent;

/**
 * Names the culprit of a stalled cycle (the class of what ran longest in it) in three places: counters per
 * culprit, tagged {@code culprit=<class>} ({@code reactor.stall.culprits}, the stalls charged to it, and
 * {@code reactor.stall.culprit.nanos}, the longest it ran in one), a warning at most once a second, and a JFR
 * {@code io.celer.Stall} event while a recording wants it.
 *
 * <p>{@link #stalled} runs on the reactor thread. A culprit's counters are made the first time it stalls a
 * cycle, up to {@link #MAX_CULPRITS}; after that a stall allocates nothing: the reactor publishes the latest
 * stall under a sequence number, and {@link StallLog}'s thread formats and logs it (a line through
 * {@code java.util.logging} allocates kilobytes, which a loaded machine's stalls would otherwise put into every
 * second of the reactor's work).
 */
final class StallReporter
{
    /** Culprits with counters of their own; further ones share {@code culprit=other}. */
    static final int MAX_CULPRITS = 16;

    private static final System.Logger LOG = System.getLogger(Reactor.class.getName());
    private static final String LAMBDA = "$$Lambda";

    private final String reactor;
    private final CounterScope scope;
    private final long thresholdNanos;
    private final Class<?>[] culprits = new Class<?>[MAX_CULPRITS];
    private final Counter[] stalls = new Counter[MAX_CULPRITS + 1];
    private final Counter[] culpritNanos = new Counter[MAX_CULPRITS + 1];
    private int known;

    /** Odd while the reactor writes the latest stall; its count of stalls is half of it, once even. */
    private volatile long sequence;
    private Class<?> lastCulprit;
    private long lastCycleNanos;
    private long lastCulpritNanos;
    /** The logging side's: stalls already told of. */
    private long loggedStalls;

    StallReporter(final CounterScope scope, final long thresholdNanos)
    {
        this.reactor = scope.name();
        this.scope = scope;
        this.thresholdNanos = thresholdNanos;
    }

    /**
     * Reports a stalled cycle; on the reactor thread.
     *
     * @param cycleNanos the cycle's length.
     * @param work       what ran longest in it, or null when nothing did.
     * @param workNanos  its time.
     */
    void stalled(final long cycleNanos, final Object work, final long workNanos)
    {
        try
        {
            final Class<?> culprit = StallCulprit.classOf(work);
            final int slot = slotOf(culprit);
            stalls[slot].increment();
            culpritNanos[slot].max(workNanos);
            // A sequence lock, as StampedLock's: odd while the fields change, so that the logging thread reads
            // one stall's fields, never two stalls' mixed.
            final long before = sequence;
            sequence = before + 1;
            VarHandle.storeStoreFence();
            lastCulprit = culprit;
            lastCycleNanos = cycleNanos;
            lastCulpritNanos = workNanos;
            sequence = before + 2;
            if (JfrEvents.stall())
            {
                StallEvent.commit(reactor, cycleNanos, culprit, workNanos);
            }
        }
        catch (final Throwable t)
        {
            // A report is not worth the reactor: a culprit() that throws, say, loses this one only.
            Logs.log(LOG, System.Logger.Level.WARNING, "reporting a stall of reactor " + reactor + " failed", t);
        }
    }

    /**
     * Logs the latest stall and how many came since the last line, if any came; on the logging thread.
     */
    synchronized void logIfStalled()
    {
        long before;
        Class<?> culprit;
        long cycleNanos;
        long workNanos;
        do
        {
            before = sequence;
            culprit = lastCulprit;
            cycleNanos = lastCycleNanos;
            workNanos = lastCulpritNanos;
            VarHandle.loadLoadFence();
        }
        while ((before & 1) != 0 || before != sequence);
        final long total = before >>> 1;
        if (total == loggedStalls || !LOG.isLoggable(System.Logger.Level.WARNING))
        {
            return;
        }
        Logs.log(LOG, System.Logger.Level.WARNING, String.format(Locale.ROOT,
            "reactor %s stalled: a cycle took %.3f ms, %.3f ms of it in %s; %d stalls (cycles over %.3f ms) " +
            "since the last such line", reactor, cycleNanos / 1e6, workNanos / 1e6, nameOf(culprit),
            total - loggedStalls, thresholdNanos / 1e6));
        loggedStalls = total;
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
        if (culprit == null)
        {
            return "unknown";
        }
        // A lambda's class is hidden and named anew in every run (Owner$$Lambda/0x...): the class that wrote it is
        // the part a dashboard or a reader can follow from run to run.
        final String name = culprit.getName();
        final int lambda = name.indexOf(LAMBDA);
        return lambda < 0 ? name : name.substring(0, lambda + LAMBDA.length());
    }
}
