package io.celer.counters;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The counters of one owner (a reactor), labelled with its name, asked for by name at setup and freed together
 * when it ends. Asking twice for the same name and tag gives the same counter, so that layers and servers
 * sharing a reactor add to one count. A scope that is full or closed hands out counters that count in memory
 * only (never shown), so that a caller need not check.
 */
public final class CounterScope implements AutoCloseable
{
    private static final System.Logger LOG = System.getLogger(CounterScope.class.getName());

    private final Counters counters;
    private final String name;
    private final Map<String, Object> byKey = new HashMap<>();
    private final Map<Class<?>, Object> groups = new HashMap<>();
    private final List<Integer> ids = new ArrayList<>();
    /** Replaced, never changed in place: the owner's thread flushes it while setup on others may add. */
    private volatile BatchedTotal[] batched = new BatchedTotal[0];
    private boolean closed;
    private boolean warnedFull;

    CounterScope(final Counters counters, final String name)
    {
        this.counters = counters;
        this.name = name;
    }

    /**
     * The label every counter of this scope carries.
     *
     * @return the scope's unique name.
     */
    public String name()
    {
        return name;
    }

    /**
     * A counter that only grows (events, bytes).
     *
     * @param counterName its name, dotted ({@code tcp.bytes.in}).
     * @param tag        a {@code key=value} that tells it apart from its siblings ({@code reason=peer_closed}),
     *                   or "".
     * @return the counter.
     */
    public Counter total(final String counterName, final String tag)
    {
        return (Counter)get(CounterType.TOTAL, counterName, tag);
    }

    /**
     * A total counted in a plain field and written to the file by {@link #flush()}: for counts made on every
     * message. It adds to the same value as {@link #total} with the same name and tag.
     *
     * @param counterName its name, dotted.
     * @param tag        a {@code key=value}, or "".
     * @return the total.
     */
    public synchronized BatchedTotal batchedTotal(final String counterName, final String tag)
    {
        final String key = "batched|" + counterName + "|" + tag;
        BatchedTotal total = (BatchedTotal)byKey.get(key);
        if (total == null)
        {
            total = new BatchedTotal(total(counterName, tag));
            byKey.put(key, total);
            final BatchedTotal[] grown = Arrays.copyOf(batched, batched.length + 1);
            grown[batched.length] = total;
            batched = grown;
        }
        return total;
    }

    /**
     * Writes every {@link BatchedTotal} of the scope to the file; on the owner's thread (its reactor's) only.
     * Garbage-free.
     */
    public void flush()
    {
        final BatchedTotal[] totals = batched;
        for (int i = 0; i < totals.length; i++)
        {
            totals[i].flush();
        }
    }

    /**
     * A counter that goes up and down, or holds a high-water mark.
     *
     * @param counterName its name, dotted.
     * @param tag        a {@code key=value}, or "".
     * @return the counter.
     */
    public Counter gauge(final String counterName, final String tag)
    {
        return (Counter)get(CounterType.GAUGE, counterName, tag);
    }

    /**
     * A histogram of nanoseconds in log-sized buckets.
     *
     * @param counterName its name, dotted.
     * @param tag        a {@code key=value} ({@code route=/quote}), or "".
     * @return the histogram.
     */
    public LatencyHistogram histogram(final String counterName, final String tag)
    {
        return (LatencyHistogram)get(CounterType.HISTOGRAM, counterName, tag);
    }

    /**
     * The one instance of a layer's group of counters in this scope, made on first call: a layer keeps its
     * counters in one object per reactor this way.
     *
     * @param type    the group's class, its key.
     * @param factory makes it from the scope.
     * @param <T>     the group.
     * @return the group.
     */
    public synchronized <T> T group(final Class<T> type, final Function<CounterScope, T> factory)
    {
        Object group = groups.get(type);
        if (group == null)
        {
            group = factory.apply(this);
            groups.put(type, group);
        }
        return type.cast(group);
    }

    private synchronized Object get(final CounterType type, final String counterName, final String tag)
    {
        final String key = type.id() + "|" + counterName + "|" + tag;
        Object counter = byKey.get(key);
        if (counter == null)
        {
            counter = make(type, counterName, tag);
            byKey.put(key, counter);
        }
        return counter;
    }

    private Object make(final CounterType type, final String counterName, final String tag)
    {
        if (!Counters.ENABLED)
        {
            return type == CounterType.HISTOGRAM ? Counters.DISABLED_HISTOGRAM : Counters.DISABLED_COUNTER;
        }
        final int slots = type == CounterType.HISTOGRAM ? LatencyHistogram.SLOTS : 1;
        final int id = closed ? -1 : counters.allocate(type, name, counterName, tag, slots);
        if (id < 0)
        {
            if (!closed && !warnedFull)
            {
                warnedFull = true;
                LOG.log(System.Logger.Level.WARNING, "counters full (-Dceler.counters.capacity): " + name + " " +
                    counterName + " is not shown");
            }
            final Counters detached = Counters.inMemory(64);
            final int local = detached.allocate(type, name, counterName, tag, slots);
            return type == CounterType.HISTOGRAM ? detached.histogramAt(local) : detached.counterAt(local);
        }
        ids.add(id);
        return type == CounterType.HISTOGRAM ? counters.histogramAt(id) : counters.counterAt(id);
    }

    /**
     * Frees every counter of the scope: readers no longer see them.
     */
    @Override
    public synchronized void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        for (final int id : ids)
        {
            counters.free(id);
        }
        ids.clear();
        counters.releaseScope(name);
    }
}
