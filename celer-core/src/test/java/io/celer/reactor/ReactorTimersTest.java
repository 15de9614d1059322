package io.celer.reactor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The timer wheel's promises on a clock the test moves: never before the deadline, at most a tick after it, and
 * the earliest timer at its deadline.
 */
final class ReactorTimersTest
{
    private static final long MS = 1_000_000L;
    private static final long TICK = ReactorTimers.TICK_NANOS;

    private final ReactorTimers timers = new ReactorTimers();
    private final List<Long> fired = new ArrayList<>();

    @Test
    void aTimerFiresNotBeforeItsDeadlineAndWithinATickAfter()
    {
        final long start = 5 * MS + 123_456; // mid-millisecond, as a cycle's clock usually is
        timers.schedule(start, 1, (id, nowMillis) -> fired.add(nowMillis));
        assertThat(timers.expire(start + MS - 1)).isZero();
        assertThat(timers.expire(start + MS + TICK)).isEqualTo(1);
        assertThat(fired).containsExactly((start + MS + TICK) / MS);
    }

    @Test
    void theEarliestTimerFiresAtItsDeadlineInsideItsTickAndTheOthersByTheTicksEnd()
    {
        final long start = 7 * MS;
        timers.schedule(start, 0, (id, nowMillis) -> fired.add(0L));
        assertThat(timers.expire(start + 1)).as("0: at the next cycle").isEqualTo(1);
        timers.schedule(start + 1, 1, (id, nowMillis) -> fired.add(1L));
        timers.schedule(start + 20_000, 1, (id, nowMillis) -> fired.add(2L));
        assertThat(timers.expire(start + MS)).isZero();
        assertThat(timers.expire(start + MS + 1)).as("the earliest, within its tick").isEqualTo(1);
        assertThat(timers.expire(start + MS + 20_000)).as("the next waits for the tick's end").isZero();
        // The wheel, emptied by the first timer, started its ticks again at start + 1.
        assertThat(timers.expire(start + TICK)).isZero();
        assertThat(timers.expire(start + 1 + TICK)).isEqualTo(1);
        assertThat(fired).containsExactly(0L, 1L, 2L);
    }

    @Test
    void aLongTimerWaitsForItsTicksEnd()
    {
        final long start = 9 * MS;
        timers.schedule(start, ReactorTimers.SHORT_MILLIS, (id, nowMillis) -> fired.add(nowMillis));
        final long deadline = start + ReactorTimers.SHORT_MILLIS * MS;
        final long tickEnd = start + (deadline - start + TICK) / TICK * TICK;
        assertThat(timers.expire(deadline)).isZero();
        assertThat(timers.expire(tickEnd - 1)).isZero();
        assertThat(timers.expire(tickEnd)).isEqualTo(1);
    }

    @Test
    void aCallbackSchedulingAgainRunsOncePerPass()
    {
        final long start = 3 * MS;
        final TimerCallback again = new TimerCallback()
        {
            @Override
            public void onTimer(final long timerId, final long nowMillis)
            {
                fired.add(nowMillis);
                timers.schedule(start + 2 * TICK, 0, this);
            }
        };
        timers.schedule(start, 0, again);
        assertThat(timers.expire(start + 2 * TICK)).isEqualTo(1);
        assertThat(timers.expire(start + 2 * TICK)).as("once per call, again at the next").isEqualTo(1);
        assertThat(timers.expire(start + 4 * TICK)).isEqualTo(1);
        assertThat(fired).hasSize(3);
    }

    @Test
    void timersBeyondOneTurnOfTheWheelWaitForTheirTurn()
    {
        final long start = 11 * MS;
        timers.schedule(start, 1_000, (id, nowMillis) -> fired.add(nowMillis));
        for (long now = start; now < start + 1_000 * MS; now += 3 * TICK)
        {
            assertThat(timers.expire(now)).isZero();
        }
        assertThat(timers.expire(start + 1_000 * MS + TICK)).isEqualTo(1);
    }

    @Test
    void cancelledTimersDoNotFireAndHugeDelaysDoNotOverflow()
    {
        final long start = 2 * MS;
        final long id = timers.schedule(start, 1, (timerId, nowMillis) -> fired.add(nowMillis));
        timers.schedule(start, Long.MAX_VALUE, (timerId, nowMillis) -> fired.add(-1L));
        assertThat(timers.cancel(id)).isTrue();
        assertThat(timers.cancel(id)).isFalse();
        assertThat(timers.expire(start + 10 * MS)).isZero();
        assertThat(fired).isEmpty();
    }
}
