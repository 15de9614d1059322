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

    @Test
    void anIdTheWheelNeverGaveCancelsNothing()
    {
        final long id = timers.schedule(3 * MS, 5, (timerId, nowMillis) -> fired.add(nowMillis));
        for (final long stranger : new long[] {-1L, Long.MIN_VALUE, Long.MAX_VALUE, id + 1, id + (1L << 32),
            (long)ReactorTimers.TICK_NANOS << 32, 1L << 40})
        {
            assertThat(timers.cancel(stranger)).as("id %x", stranger).isFalse();
        }
        assertThat(timers.expire(3 * MS + 5 * MS + TICK)).isEqualTo(1);
        assertThat(fired).hasSize(1);
    }

    @Test
    void thousandsOfTimersInOneSpokeEachRunTheirOwnCallbackOrNoneOnceCancelled()
    {
        final long start = 7 * MS;
        final List<Long> ids = new ArrayList<>();
        final List<Long> ran = new ArrayList<>();
        for (int i = 0; i < 3_000; i++)
        {
            final long tag = i;
            ids.add(timers.schedule(start, 2, (timerId, nowMillis) -> ran.add(tag)));
        }
        assertThat(ids).as("one spoke, grown far past its first slots").allMatch(id -> id >>> 32 == ids.get(0) >>> 32)
            .doesNotHaveDuplicates();
        for (int i = 0; i < ids.size(); i += 2)
        {
            assertThat(timers.cancel(ids.get(i))).isTrue();
        }
        // A slot freed by a cancel is taken again: the new timer's callback is its own, not the cancelled one's.
        final long again = timers.schedule(start, 2, (timerId, nowMillis) -> ran.add(-1L));
        assertThat(ids).contains(again);

        assertThat(timers.expire(start + 2 * MS + TICK)).isEqualTo(1_501);
        final List<Long> expected = new ArrayList<>();
        for (long i = 1; i < 3_000; i += 2)
        {
            expected.add(i);
        }
        expected.add(-1L);
        assertThat(ran).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void timersInEverySpokeOfTheWheelAllocateNothing()
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)java.lang.management.ManagementFactory.getThreadMXBean();
        final long[] ran = new long[1];
        final TimerCallback callback = (timerId, nowMillis) -> ran[0]++;
        long now = 11 * MS;
        // Warm-up in three spokes only: the calls compiled, and the rest of the wheel's spokes never used yet.
        for (int i = 0; i < 20_000; i++)
        {
            timers.cancel(timers.schedule(now, i % 3, callback));
        }
        final long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
        // A turn and a half of the wheel, a millisecond a step: each spoke gets its first timer of the turn.
        for (int step = 0; step < 800; step++)
        {
            now += MS;
            timers.schedule(now, 3, callback);
            timers.cancel(timers.schedule(now, 250, callback));
            timers.expire(now);
        }
        final long allocated = threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
        assertThat(ran[0]).as("the short timers ran").isGreaterThan(700);
        assertThat(allocated).as("bytes allocated over 1,600 timers in every spoke").isZero();
    }

    @Test
    void aWaitingReactorSleepsUntilTheTickOfItsFirstTimerNotTheNextTick()
    {
        final long start = 13 * MS;
        timers.schedule(start, 300, (id, nowMillis) -> fired.add(nowMillis));
        final long look = timers.nanosToNextLook(start);
        assertThat(look).as("one timer 300 ms away: no wake-up before").isBetween(300 * MS, 300 * MS + TICK);
        assertThat(timers.expire(start + look - 1)).isZero();
        assertThat(timers.expire(start + look)).isEqualTo(1);
        assertThat(timers.nanosToNextLook(start + look)).as("none pending").isEqualTo(-1);

        final long later = start + look;
        timers.schedule(later, 2_000, (id, nowMillis) -> fired.add(nowMillis));
        assertThat(timers.nanosToNextLook(later)).as("a timer beyond one turn: a look within the turn")
            .isPositive().isLessThanOrEqualTo(512 * TICK);
    }

    @Test
    void aReactorWakingOnlyWhenItsLooksSayNeverFiresATimerLateOrEarly()
    {
        final java.util.SplittableRandom random = new java.util.SplittableRandom(17);
        final long[] delays = {0, 1, 2, 5, 9, 10, 11, 50, 300, 700, 2_000};
        final java.util.Map<Long, Long> pending = new java.util.HashMap<>();
        long now = 17 * MS + 4_321;
        for (int step = 0; step < 20_000; step++)
        {
            if (random.nextInt(3) == 0)
            {
                final long delay = delays[random.nextInt(delays.length)];
                final long deadline = now + delay * MS;
                final long[] id = new long[1];
                id[0] = timers.schedule(now, delay, (timerId, nowMillis) ->
                {
                    assertThat(pending.remove(timerId)).as("timer %d fires once", timerId).isNotNull();
                });
                pending.put(id[0], deadline);
            }
            if (!pending.isEmpty() && random.nextInt(8) == 0)
            {
                final Long victim = pending.keySet().iterator().next();
                assertThat(timers.cancel(victim)).isTrue();
                pending.remove(victim);
            }
            final long look = timers.nanosToNextLook(now);
            assertThat(look >= 0).as("a look whenever a timer is pending").isEqualTo(!pending.isEmpty());
            assertThat(look).as("never past the latest deadline's tick").isLessThanOrEqualTo(2_000 * MS + TICK);
            // The reactor sleeps until the look, or wakes earlier for I/O; with nothing pending, for a while.
            final long sleep = look < 0 ? random.nextLong(1, 50 * MS) : random.nextInt(4) == 0
                ? random.nextLong(0, look + 1) : look;
            now += Math.max(1, sleep);
            final java.util.Map<Long, Long> due = new java.util.HashMap<>(pending);
            timers.expire(now);
            for (final java.util.Map.Entry<Long, Long> timer : due.entrySet())
            {
                final boolean firedNow = !pending.containsKey(timer.getKey());
                if (firedNow)
                {
                    assertThat(now).as("not before its deadline").isGreaterThanOrEqualTo(timer.getValue());
                }
                assertThat(firedNow || now <= timer.getValue() + TICK).as("a tick after its deadline at the latest")
                    .isTrue();
            }
        }
    }
}
