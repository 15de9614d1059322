package io.celer.reactor;

import java.util.concurrent.TimeUnit;

import org.agrona.DeadlineTimerWheel;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * A reactor's timers: nanosecond deadlines on Agrona's timer wheel, and their callbacks by id.
 *
 * <p>A timer fires at the first cycle after the wheel tick holding its deadline has ended: never before its
 * deadline, at most one tick ({@value #TICK_NANOS} ns, about 1.05 ms) after it. Each tick's spoke is scanned
 * once, when the tick ends, so a busy-spinning reactor does not scan on every cycle. The tick is that coarse on
 * purpose: the wheel scans every slot of a spoke, and a spoke's slots grow to the most timers one tick ever held
 * (thousands, when many connections schedule alike timeouts at once) and never shrink, so finer ticks multiply
 * that scan; at 66 µs ticks a client of 10,000 HTTP connections lost about a third of its rate.
 *
 * <p>Garbage-free once the map has grown to the most timers pending at once: the wheel keeps deadlines in
 * arrays, and expiry goes through one handler made at construction.
 */
final class ReactorTimers
{
    /** A power of two nanoseconds, as the wheel wants: the most a timer fires after its deadline. */
    static final int TICK_NANOS = 1 << 20;

    private static final System.Logger LOG = System.getLogger(Reactor.class.getName());
    /** About 0.54 s a turn; a later deadline waits in its spoke for its turn. */
    private static final int TICKS_PER_WHEEL = 512;
    private static final long NANOS_PER_MILLI = 1_000_000L;

    private final DeadlineTimerWheel wheel =
        new DeadlineTimerWheel(TimeUnit.NANOSECONDS, 0, TICK_NANOS, TICKS_PER_WHEEL);
    private final DeadlineTimerWheel.TimerHandler handler = this::expire;
    private final Long2ObjectHashMap<TimerCallback> callbacks = new Long2ObjectHashMap<>();

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
        }
        // Long.MAX_VALUE is the wheel's empty slot: the farthest deadline stops just short of it.
        final long latest = Long.MAX_VALUE - 1 - nowNanos;
        final long delay = Math.max(0, delayMillis);
        final long timerId = wheel.scheduleTimer(
            nowNanos + (delay > latest / NANOS_PER_MILLI ? latest : delay * NANOS_PER_MILLI));
        callbacks.put(timerId, callback);
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
        if (callbacks.remove(timerId) == null)
        {
            return false;
        }
        wheel.cancelTimer(timerId);
        return true;
    }

    /**
     * Runs the callbacks of every timer whose tick has ended by now.
     *
     * @param nowNanos the reactor clock, nanoseconds.
     * @return how many ran.
     */
    int expire(final long nowNanos)
    {
        int expired = 0;
        if (wheel.timerCount() > 0)
        {
            // Only ended ticks are polled, each once: the loop ends however often callbacks schedule again.
            while (wheel.currentTickTime() <= nowNanos)
            {
                expired += wheel.poll(nowNanos, handler, Integer.MAX_VALUE);
            }
        }
        return expired;
    }

    private boolean expire(final TimeUnit unit, final long nowNanos, final long timerId)
    {
        final TimerCallback callback = callbacks.remove(timerId);
        if (callback != null)
        {
            try
            {
                callback.onTimer(timerId, nowNanos / NANOS_PER_MILLI);
            }
            catch (final Throwable t)
            {
                LOG.log(System.Logger.Level.ERROR, "timer callback " + callback + " failed", t);
            }
        }
        return true;
    }
}
