package io.celer.test;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Bounded waits for tests: poll a condition until it holds or the deadline passes.
 */
public final class Await
{
    /** The default bound of a wait. */
    public static final Duration DEFAULT = Duration.ofSeconds(30);

    private Await()
    {
    }

    /**
     * Waits up to {@link #DEFAULT} for a condition.
     *
     * @param what      said when it fails.
     * @param condition the condition.
     */
    public static void until(final String what, final BooleanSupplier condition)
    {
        until(what, condition, DEFAULT);
    }

    /**
     * Waits for a condition.
     *
     * @param what      said when it fails.
     * @param condition the condition.
     * @param timeout   the bound.
     * @throws AssertionError if the condition does not hold in time.
     */
    public static void until(final String what, final BooleanSupplier condition, final Duration timeout)
    {
        until(() -> what, condition, timeout);
    }

    /**
     * Waits up to {@link #DEFAULT} for a condition without allocating, yielding between looks: for a thread whose
     * allocations are being measured. Built once, outside the measured work, the condition allocates nothing
     * either.
     *
     * @param what      said when it fails.
     * @param condition the condition.
     * @throws AssertionError if the condition does not hold in time.
     */
    public static void spinUntil(final String what, final BooleanSupplier condition)
    {
        final long deadline = System.nanoTime() + DEFAULT.toNanos();
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0)
            {
                throw new AssertionError("timed out after " + DEFAULT.toMillis() + " ms waiting for " + what);
            }
            Thread.yield();
        }
    }

    /**
     * Waits for a condition, describing the state when it fails.
     *
     * @param what      builds the failure message.
     * @param condition the condition.
     * @param timeout   the bound.
     * @throws AssertionError if the condition does not hold in time.
     */
    public static void until(final Supplier<String> what, final BooleanSupplier condition, final Duration timeout)
    {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0)
            {
                throw new AssertionError("timed out after " + timeout.toMillis() + " ms waiting for " + what.get());
            }
            try
            {
                Thread.sleep(1);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what.get(), ex);
            }
        }
    }
}
