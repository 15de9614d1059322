package io.celer.reactor;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The reactor's announcement that it is about to park, and the producers' look at it: a Dekker pair.
 *
 * <p>The reactor raises the flag, then looks at the queues once more before parking; a producer publishes into
 * a queue, then looks at the flag to decide whether to unpark the reactor. Each side stores then loads a
 * different variable, so each needs a StoreLoad barrier between the two: without it a producer can read the
 * flag before its release-only publication is visible, see the reactor awake while the reactor sees an empty
 * queue, and the reactor sleeps with work waiting. A volatile flag alone is not enough, because the queues
 * publish with release stores, which the JMM lets a later volatile load pass. Full fences on both sides
 * forbid that outcome: at least one side sees the other's store.
 */
final class SleepFlag
{
    private static final VarHandle SLEEPING;

    static
    {
        try
        {
            SLEEPING = MethodHandles.lookup().findVarHandle(SleepFlag.class, "sleeping", boolean.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    @SuppressWarnings("unused") // accessed through SLEEPING
    private boolean sleeping;

    /**
     * Reactor: announces the sleep; the caller looks at its queues after this and parks only if they are empty.
     */
    void fallAsleep()
    {
        SLEEPING.setVolatile(this, true);
        // The loads of the queues that follow must not pass the store above.
        VarHandle.fullFence();
    }

    /**
     * Reactor: withdraws the announcement after waking; a producer that still sees it only unparks in vain.
     */
    void wakeUp()
    {
        SLEEPING.setRelease(this, false);
    }

    /**
     * Producer: whether the reactor may be asleep, called after publishing.
     *
     * @return true when the reactor has announced a sleep and the caller must unpark it.
     */
    boolean mayBeAsleep()
    {
        // The load below must not pass the publication the caller just made, release store or not.
        VarHandle.fullFence();
        return (boolean)SLEEPING.getVolatile(this);
    }
}
