package io.celer.reactor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.counters.Counters;
import io.celer.test.Await;
import io.celer.test.CapturedLog;
import io.celer.test.Reactors;
import io.celer.test.SteadyAllocation;

/**
 * A cycle that runs past the stall threshold names what ran longest in it (a timer, a callback) in its counters
 * and in a warning logged at most once a second, and recording it allocates nothing once the culprit is known.
 */
class StallCulpritTest
{
    private static final Pattern SINCE = Pattern.compile("; (\\d+) stalls \\(cycles over");

    @RegisterExtension
    final Reactors reactors = new Reactors();

    private final CapturedLog log = new CapturedLog(Reactor.class.getName());

    @AfterEach
    void detach()
    {
        log.close();
    }

    /** Holds the reactor thread past the threshold, without allocating. */
    private static void spin(final long nanos)
    {
        final long end = System.nanoTime() + nanos;
        while (System.nanoTime() < end)
        {
            Thread.onSpinWait();
        }
    }

    /** A timer that stalls its cycle 20 ms. */
    static final class SleepyTimer implements TimerCallback
    {
        @Override
        public void onTimer(final long timerId, final long nowMillis)
        {
            spin(20_000_000L);
        }
    }

    /** A callback that stalls its cycle 20 ms. */
    static final class SleepyTask implements Runnable
    {
        @Override
        public void run()
        {
            spin(20_000_000L);
        }
    }

    /** A callback run through {@link Reactor#call}, wrapped by the reactor but named as itself. */
    static final class SleepyCall implements Runnable
    {
        @Override
        public void run()
        {
            spin(20_000_000L);
        }
    }

    /** A garbage-free callback from a callback queue that stalls its cycle 20 ms. */
    static final class SleepyCallback implements ReactorCallback
    {
        @Override
        public void onCallback(final long nowMillis)
        {
            spin(20_000_000L);
        }
    }

    /** A timer that stalls each cycle it fires in a little past the threshold, and fires again at once. */
    static final class RepeatedStall implements TimerCallback
    {
        private final Reactor reactor;
        private final long nanos;
        private final AtomicBoolean running = new AtomicBoolean(true);

        RepeatedStall(final Reactor reactor, final long nanos)
        {
            this.reactor = reactor;
            this.nanos = nanos;
        }

        @Override
        public void onTimer(final long timerId, final long nowMillis)
        {
            spin(nanos);
            if (running.get())
            {
                reactor.schedule(0, this);
            }
        }
    }

    @Test
    void aTimerThatStallsIsNamed() throws Exception
    {
        final Reactor reactor = reactors.start("stall-timer");
        assertNamed(reactor, SleepyTimer.class, () -> reactor.call(() -> reactor.schedule(0, new SleepyTimer())));
    }

    @Test
    void callbacksThatStallAreNamed()
    {
        final Reactor reactor = reactors.start("stall-callback");
        assertThat(reactor.callAsync(new SleepyTask())).isTrue();
        awaitStalls(reactor, SleepyTask.class, 1);
        reactor.call(new SleepyCall());
        awaitStalls(reactor, SleepyCall.class, 1);
        final AtomicReference<CallbackQueue<SleepyCallback>> queue = new AtomicReference<>();
        reactor.call(() -> queue.set(reactor.callbackQueue(4, SleepyCallback::new)));
        assertThat(queue.get().next()).isNotNull();
        queue.get().flush();
        awaitStalls(reactor, SleepyCallback.class, 1);
    }

    @Test
    void aLambdaIsNamedAfterTheClassThatWroteItTheSameInEveryRun()
    {
        final Reactor reactor = reactors.start("stall-lambda");
        final Runnable lambda = () -> spin(20_000_000L);
        assertThat(lambda.getClass().getName()).contains("$$Lambda").isNotEqualTo(StallCulpritTest.class.getName() +
            "$$Lambda");
        assertThat(reactor.callAsync(lambda)).isTrue();
        Await.until("the lambda's stall", () -> Counters.process().reader().sum(reactor.counters().name(),
            "reactor.stall.culprits", "culprit=" + StallCulpritTest.class.getName() + "$$Lambda") >= 1);
    }

    @Test
    void theWarningComesAtMostOnceASecondAndCountsTheStallsBetween() throws Exception
    {
        final Reactor reactor = reactors.start("stall-often");
        final RepeatedStall stall = new RepeatedStall(reactor, 2_000_000L);
        reactor.call(() -> reactor.schedule(0, stall));
        awaitStalls(reactor, RepeatedStall.class, 1);
        Thread.sleep(3_000); // three looks of the logging thread, give or take one
        reactor.call(() -> stall.running.set(false));
        final long total = stalls(reactor, RepeatedStall.class);
        final List<LogRecord> lines = log.containing("reactor " + reactor.counters().name() + " stalled");
        assertThat(total).as("stalls counted").isGreaterThan(100);
        assertThat(lines).as("one line a second").hasSizeBetween(2, 5);
        long reported = 0;
        for (int i = 0; i < lines.size(); i++)
        {
            if (i > 0)
            {
                // The logging thread looks once a second, its clock not the reactor's; unbounded, lines would
                // come 2 ms apart.
                assertThat(Duration.between(lines.get(i - 1).getInstant(), lines.get(i).getInstant()))
                    .isGreaterThanOrEqualTo(Duration.ofMillis(900));
            }
            final Matcher since = SINCE.matcher(lines.get(i).getMessage());
            assertThat(since.find()).as(lines.get(i).getMessage()).isTrue();
            assertThat(Long.parseLong(since.group(1))).isGreaterThan(i == 0 ? 0 : 10);
            reported += Long.parseLong(since.group(1));
        }
        // A line counts every stall since the one before, whatever its culprit: on a loaded machine a cycle the
        // scheduler preempts is a stall too, named after what ran longest in it.
        final long all = Counters.process().reader().sum(reactor.counters().name(), "reactor.stalls", "");
        assertThat(reported).as("every stall up to the last line is counted in some line").isLessThanOrEqualTo(all);
        assertThat(lines.get(lines.size() - 1).getMessage()).contains(RepeatedStall.class.getName());
    }

    @Test
    void recordingAStallAllocatesNothingOnceItsCulpritIsKnown() throws Exception
    {
        final Reactor reactor = reactors.start(new ReactorConfig().name("stall-garbage")
            .idleStrategy(new BackoffIdleStrategy(10, 10, 1_000, 100_000)));
        final RepeatedStall stall = new RepeatedStall(reactor, 1_200_000L);
        reactor.call(() -> reactor.schedule(0, stall));
        final List<Long> perWindow = SteadyAllocation.perWindow(reactor.thread(), () ->
        {
            final long before = stalls(reactor, RepeatedStall.class);
            Await.until("20 more stalls", () -> stalls(reactor, RepeatedStall.class) >= before + 20);
        });
        reactor.call(() -> stall.running.set(false));
        assertThat(perWindow.get(perWindow.size() - 1)).as("bytes per window of 20 stalls: " + perWindow).isZero();
    }

    /**
     * Provokes the stall until the warning names the culprit: the first stalls of a new reactor (class loading
     * in a first call, say) may have taken the second's one line.
     */
    private void assertNamed(final Reactor reactor, final Class<?> culprit, final Runnable provoke)
        throws InterruptedException
    {
        provoke.run();
        awaitStalls(reactor, culprit, 1);
        final long nanos = Counters.process().reader().sum(reactor.counters().name(), "reactor.stall.culprit.nanos",
            "culprit=" + culprit.getName());
        assertThat(nanos).isBetween(20_000_000L, 10_000_000_000L);
        for (int i = 0; i < 20 && log.containing(culprit.getName()).isEmpty(); i++)
        {
            Thread.sleep(200);
            provoke.run();
        }
        final LogRecord line = log.containing(culprit.getName()).get(0);
        assertThat(line.getLevel()).isEqualTo(Level.WARNING);
        assertThat(line.getMessage()).matches("reactor " + Pattern.quote(reactor.counters().name()) +
            " stalled: a cycle took [0-9.]+ ms, [0-9.]+ ms of it in " + Pattern.quote(culprit.getName()) +
            "; [0-9]+ stalls \\(cycles over 1\\.000 ms\\) since the last such line");
    }

    private static void awaitStalls(final Reactor reactor, final Class<?> culprit, final long atLeast)
    {
        Await.until(culprit.getName() + " named in " + atLeast + " stalls",
            () -> stalls(reactor, culprit) >= atLeast);
    }

    private static long stalls(final Reactor reactor, final Class<?> culprit)
    {
        return Counters.process().reader().sum(reactor.counters().name(), "reactor.stall.culprits",
            "culprit=" + culprit.getName());
    }
}
