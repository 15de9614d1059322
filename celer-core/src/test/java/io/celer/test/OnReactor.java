package io.celer.test;

import java.util.function.Supplier;

import io.celer.reactor.Reactor;

/**
 * Reads what only a reactor's thread may touch (pools, queues, counters) from a test's thread.
 */
public final class OnReactor
{
    private OnReactor()
    {
    }

    /**
     * Runs a query on the reactor thread and waits for its answer.
     *
     * @param reactor the running reactor.
     * @param query   what to read there.
     * @param <T>     the answer's type.
     * @return the answer.
     */
    public static <T> T get(final Reactor reactor, final Supplier<T> query)
    {
        final Object[] result = new Object[1];
        reactor.call(() -> result[0] = query.get());
        @SuppressWarnings("unchecked")
        final T value = (T)result[0];
        return value;
    }
}
