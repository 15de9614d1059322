package io.celer.reactor;

import java.util.concurrent.TimeUnit;

import org.agrona.DeadlineTimerWheel;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * A reactor's timers: deadlines on Agrona's timer wheel with millisecond ticks, and their callbacks by id.
 *
 * <p>Garbage-free once the map has grown to the most timers pending at once: the wheel keeps deadlines in
 * arrays, and expiry goes through one handler made at construction.
 */
final class ReactorTimers
{
    private static final System.Logger LOG = System.getLogger(Reactor.class.getName());
    private static final int TICKS_PER_WHEEL = 512;

    private final DeadlineTimerWheel wheel = new DeadlineTimerWheel(TimeUnit.MILLISECONDS, 0, 1, TICKS_PER_WHEEL);
    private final DeadlineTimerWheel.TimerHandler handler = this::expire;
    private final Long2ObjectHashMap<TimerCallback> callbacks = new Long2ObjectHashMap<>();

    /**
     * Schedules a callback.
     *
     * @param nowMillis   the reactor clock.
     * @param delayMillis milliseconds from now; negative counts as 0.
     * @param callback    what to call.
     * @return the timer id.
     */
    long schedule(final long nowMillis, final long delayMillis, final TimerCallback callback)
    {
        if (wheel.timerCount() == 0)
        {
            // An empty wheel restarts at now, so its cursor never has to catch up over idle time.
            wheel.resetStartTime(nowMillis);
        }
        final long timerId = wheel.scheduleTimer(nowMillis + Math.max(0, delayMillis));
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
     * Runs the callbacks of every timer due by now.
     *
     * @param nowMillis the reactor clock.
     * @return how many ran.
     */
    int expire(final long nowMillis)
    {
        int expired = 0;
        if (wheel.timerCount() > 0)
        {
            while (wheel.currentTickTime() <= nowMillis)
            {
                expired += wheel.poll(nowMillis, handler, Integer.MAX_VALUE);
            }
        }
        return expired;
    }

    private boolean expire(final TimeUnit unit, final long now, final long timerId)
    {
        final TimerCallback callback = callbacks.remove(timerId);
        if (callback != null)
        {
            try
            {
                callback.onTimer(timerId, now);
            }
            catch (final Throwable t)
            {
                LOG.log(System.Logger.Level.ERROR, "timer callback " + callback + " failed", t);
            }
        }
        return true;
    }
}
