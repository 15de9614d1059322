package io.celer.reactor;

/**
 * Which unit of work (a ready channel's owner, a busy poller, a timer, a callback, an end-of-cycle task) ran
 * longest in the current cycle, so that a stalled cycle can name it.
 *
 * <p>Each unit is charged the time from the previous boundary to the next. A boundary is a timestamp the
 * reactor takes anyway (its cycle's start, its clock after the select and the polls, its cycle's end) or, only
 * when a second unit starts before the first one's time was closed, one {@code System.nanoTime()} read here. So
 * a cycle with one unit of work (the common case of a busy-polled or selecting round trip) reads no clock more
 * than before; a cycle with n units reads n - 1 more, a few tens of nanoseconds each against their work. Timing
 * every dispatch on both sides would cost two reads per message; timing only past the threshold cannot tell the
 * unit that crossed it from the one that ran before. What runs between two units (the select call, idle polls)
 * is charged to the next unit, and a unit nested inside another (a select run from a callback) closes the outer
 * one's time early: both err by microseconds against a threshold of a millisecond.
 */
final class LongestDispatch
{
    private long mark;
    private Object running;
    private Object longest;
    private long longestNanos;

    /**
     * Starts a cycle.
     *
     * @param nowNanos the cycle's start, {@code System.nanoTime()}.
     */
    void begin(final long nowNanos)
    {
        mark = nowNanos;
        running = null;
        longest = null;
        longestNanos = 0;
    }

    /**
     * A unit of work starts now: the one still running before it ends here.
     *
     * @param work the unit, named if it turns out the longest.
     */
    void start(final Object work)
    {
        if (running != null)
        {
            end(System.nanoTime());
        }
        running = work;
    }

    /**
     * The unit that just ran did nothing (a poll that found no bytes): its time goes to the next.
     */
    void idle()
    {
        running = null;
    }

    /**
     * A timestamp the reactor took anyway: ends the running unit, if any, there.
     *
     * @param nowNanos {@code System.nanoTime()}.
     */
    void at(final long nowNanos)
    {
        if (running != null)
        {
            end(nowNanos);
        }
        mark = nowNanos;
    }

    private void end(final long nowNanos)
    {
        final long nanos = nowNanos - mark;
        if (nanos > longestNanos)
        {
            longestNanos = nanos;
            longest = running;
        }
        running = null;
        mark = nowNanos;
    }

    /**
     * The unit that ran longest since {@link #begin}.
     *
     * @return it, or null when none ran.
     */
    Object longest()
    {
        return longest;
    }

    /**
     * Its time.
     *
     * @return nanoseconds, 0 when none ran.
     */
    long longestNanos()
    {
        return longestNanos;
    }
}
