package io.celer.reactor;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import org.agrona.DeadlineTimerWheel;
import io.celer.reactor.internal.Logs;

/**
 * A reactor's timers: nanosecond deadlines on Agrona's timer wheel, and their callbacks in the same places.
 *
 * <p>A timer never fires before its deadline, and at the latest at the first cycle after its wheel tick
 * ({@value #TICK_NANOS} ns, about 1.05 ms) has ended. A short one (under {@value #SHORT_MILLIS} ms, where a tick
 * would be a tenth of the delay or more: a feed's next tick, a retry) fires at the first cycle after its deadline
 * if it is the earliest short timer scheduled since the wheel was last scanned for one. So a spoke is scanned
 * when its tick ends, and once more inside it only when that earliest short deadline passes: a busy-spinning
 * reactor compares one number per cycle, and thousands of connections' timeouts add no scan. The tick is that
 * coarse on purpose: the wheel scans every slot of a spoke, and a spoke's slots grow to the most timers one tick
 * ever held (thousands, when many connections schedule alike timeouts at once) and never shrink, so finer ticks
 * multiply that scan; at 66 µs ticks a client of 10,000 HTTP connections lost about a third of its rate.
 *
 * <p>A callback sits where its deadline does: the wheel's id names a spoke and a slot in it, and each spoke has
 * an array of callbacks, as many as the wheel's spoke has slots at first and doubled as a spoke's slots are. A
 * map by id would keep each id again beside a callback in a table kept at most two thirds full: about 20 bytes
 * per pending timer, against 4 to 8 here, on every one of thousands of idle connections that each wait on a
 * timeout.
 *
 * <p>Garbage-free once the spokes have grown to the most timers pending at once: the wheel keeps deadlines in
 * arrays, and expiry goes through one handler made at construction.
 */
final class ReactorTimers
{
    /** A power of two nanoseconds, as the wheel wants: the most a timer fires after its deadline. */
    static final int TICK_NANOS = 1 << 20;

    private static final int TICK_SHIFT = Integer.numberOfTrailingZeros(TICK_NANOS);

    /** Delays below this many milliseconds are short: worth a scan inside a tick to fire on time. */
    static final int SHORT_MILLIS = 10;

    private static final System.Logger LOG = System.getLogger(Reactor.class.getName());
    /** About 0.54 s a turn; a later deadline waits in its spoke for its turn. */
    private static final int TICKS_PER_WHEEL = 512;
    private static final long NANOS_PER_MILLI = 1_000_000L;
    /** A spoke's first array of callbacks: as many slots as the wheel first gives a spoke. */
    private static final int INITIAL_SLOTS = 16;

    private final DeadlineTimerWheel wheel =
        new DeadlineTimerWheel(TimeUnit.NANOSECONDS, 0, TICK_NANOS, TICKS_PER_WHEEL);
    private final DeadlineTimerWheel.TimerHandler handler = this::expire;
    /** By spoke, then by slot in it: the callback of each pending timer, null in a free slot. */
    private final TimerCallback[][] callbacks = new TimerCallback[TICKS_PER_WHEEL][];
    /**
     * Pending timers per spoke, so that a reactor about to wait knows the first tick that holds one and sleeps
     * until it ends, instead of waking at every tick's end while any timer is pending (a server with one
     * keep-alive timer would wake a thousand times a second). The wheel puts a timer in the spoke of its
     * deadline's tick, or of the current tick for a deadline already past, and says which in the id's high half.
     */
    private final int[] spokeTimers = new int[TICKS_PER_WHEEL];
    /** The earliest short deadline scheduled since the last scan for one; its passing scans the current spoke. */
    private long earliest = Long.MAX_VALUE;
    private final LongestDispatch dispatches;

    ReactorTimers()
    {
        this(new LongestDispatch());
    }

    ReactorTimers(final LongestDispatch dispatches)
    {
        this.dispatches = dispatches;
        // Each spoke starts with as many slots as the wheel gives it, so that a spoke's first timer, at any turn
        // of the wheel, allocates nothing.
        for (int spoke = 0; spoke < TICKS_PER_WHEEL; spoke++)
        {
            callbacks[spoke] = new TimerCallback[INITIAL_SLOTS];
        }
    }

    /**
     * Schedules a callback.
     *
     * @param nowNanos    the reactor clock, nanoseconds.
     * @param delayMillis milliseconds from now; negative counts as 0.
     * @param callback    what to call.
     * @return the timer id.
     */
    long schedule(final long nowNanos, final long delayMillis, final TimerCallback callback)
    {
        if (wheel.timerCount() == 0)
        {
            // An empty wheel restarts at now, so its cursor never has to catch up over idle time.
            wheel.resetStartTime(nowNanos);
            earliest = Long.MAX_VALUE;
        }
        // Long.MAX_VALUE is the wheel's empty slot: the farthest deadline stops just short of it.
        final long latest = Long.MAX_VALUE - 1 - nowNanos;
        final long delay = Math.max(0, delayMillis);
        final long deadline = nowNanos + (delay > latest / NANOS_PER_MILLI ? latest : delay * NANOS_PER_MILLI);
        final long timerId = wheel.scheduleTimer(deadline);
        spokeTimers[spoke(timerId)]++;
        if (delay < SHORT_MILLIS)
        {
            earliest = Math.min(earliest, deadline);
        }
        place(timerId, callback);
        return timerId;
    }

    /**
     * Cancels a timer.
     *
     * @param timerId an id from {@link #schedule}.
     * @return true if it was pending.
     */
    boolean cancel(final long timerId)
    {
        if (take(timerId) == null)
        {
            return false;
        }
        wheel.cancelTimer(timerId);
        spokeTimers[spoke(timerId)]--;
        return true;
    }

    /**
     * How long the reactor may wait before the wheel needs a look: until the end of the first tick from the
     * current one whose spoke holds a timer (of this turn of the wheel or a later one), or until the earliest
     * short deadline passes, whichever comes first.
     *
     * @param nowNanos the reactor clock, nanoseconds.
     * @return nanoseconds, 0 or more, or -1 when no timer is pending.
     */
    long nanosToNextLook(final long nowNanos)
    {
        if (wheel.timerCount() == 0)
        {
            return -1;
        }
        // The wheel's current tick ends at currentTickTime(); the spokes are looked at from it on, one turn.
        final long currentTickEnd = wheel.currentTickTime();
        final long currentTick = ((currentTickEnd - wheel.startTime()) >> TICK_SHIFT) - 1;
        long look = Long.MAX_VALUE;
        for (int ahead = 0; ahead < TICKS_PER_WHEEL; ahead++)
        {
            if (spokeTimers[(int)((currentTick + ahead) & (TICKS_PER_WHEEL - 1))] > 0)
            {
                look = currentTickEnd + (long)ahead * TICK_NANOS;
                break;
            }
        }
        return Math.max(0, Math.min(look, earliest) - nowNanos);
    }

    /**
     * Runs the callbacks of every timer whose tick has ended by now, or else, once the earliest short deadline
     * has passed, of every timer due in the current tick.
     *
     * @param nowNanos the reactor clock, nanoseconds.
     * @return how many ran.
     */
    int expire(final long nowNanos)
    {
        int expired = 0;
        if (wheel.timerCount() > 0)
        {
            if (wheel.currentTickTime() <= nowNanos)
            {
                // Only ended ticks are polled, each once: the loop ends however often callbacks schedule again.
                // A deadline they pass stays for the next cycle's scan, so no callback runs twice in one call.
                while (wheel.currentTickTime() <= nowNanos)
                {
                    expired += wheel.poll(nowNanos, handler, Integer.MAX_VALUE);
                }
            }
            else if (nowNanos >= earliest)
            {
                // Cleared first: what the callbacks schedule sets it anew. Other timers of this tick that are not
                // yet due wait for the tick's end.
                earliest = Long.MAX_VALUE;
                expired += wheel.poll(nowNanos, handler, Integer.MAX_VALUE);
            }
        }
        return expired;
    }

    private boolean expire(final TimeUnit unit, final long nowNanos, final long timerId)
    {
        spokeTimers[spoke(timerId)]--;
        final TimerCallback callback = take(timerId);
        if (callback != null)
        {
            dispatches.start(callback);
            try
            {
                callback.onTimer(timerId, nowNanos / NANOS_PER_MILLI);
            }
            catch (final Throwable t)
            {
                Logs.log(LOG, System.Logger.Level.ERROR, "timer callback " + callback + " failed", t);
            }
        }
        return true;
    }

    private void place(final long timerId, final TimerCallback callback)
    {
        final int spoke = spoke(timerId);
        final int slot = slot(timerId);
        TimerCallback[] slots = callbacks[spoke];
        if (slot >= slots.length)
        {
            // Doubled, as the wheel grows its spokes, so a spoke's array is copied a few times in its life.
            slots = Arrays.copyOf(slots, Integer.highestOneBit(slot) << 1);
            callbacks[spoke] = slots;
        }
        slots[slot] = callback;
    }

    /** The callback of a pending timer, its slot freed; null if none is pending under the id. */
    private TimerCallback take(final long timerId)
    {
        final int spoke = spoke(timerId);
        final int slot = slot(timerId);
        // Any long may come from an application's cancel: one the wheel never gave finds nothing.
        if (spoke < 0 || spoke >= TICKS_PER_WHEEL || slot < 0 || slot >= callbacks[spoke].length)
        {
            return null;
        }
        final TimerCallback[] slots = callbacks[spoke];
        final TimerCallback callback = slots[slot];
        slots[slot] = null;
        return callback;
    }

    /** The slot in its spoke a timer is in: the low half of the wheel's id. */
    private static int slot(final long timerId)
    {
        return (int)timerId;
    }

    /** The spoke a timer is in: the wheel's id holds it in its high half. */
    private static int spoke(final long timerId)
    {
        return (int)(timerId >>> 32);
    }
}
