package io.celer.reactor.internal;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The process's running reactors that keep their CPU when idle: those that neither wait in the selector nor park
 * (busy-spinning, yielding). Work the process runs beside the reactors at a low priority starves next to one of
 * them, as the kernel gives a nice 19 thread a few percent of a CPU that a thread at the process's priority
 * never leaves.
 */
public final class SpinningReactors
{
    private static final AtomicInteger RUNNING = new AtomicInteger();

    private SpinningReactors()
    {
    }

    /**
     * Whether any runs now.
     *
     * @return true while at least one spinning reactor's thread runs.
     */
    public static boolean any()
    {
        return RUNNING.get() > 0;
    }

    /**
     * How many run now.
     *
     * @return the count.
     */
    public static int count()
    {
        return RUNNING.get();
    }

    /** On a spinning reactor's thread, as it starts. */
    public static void started()
    {
        RUNNING.incrementAndGet();
    }

    /** On a spinning reactor's thread, as it ends; once for each {@link #started}. */
    public static void stopped()
    {
        RUNNING.decrementAndGet();
    }
}
