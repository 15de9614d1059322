package io.celer.reactor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.celer.test.Await;
import io.celer.test.ProducerThreads;
import io.celer.test.SteadyAllocation;

/**
 * Garbage-free callbacks from other threads into the reactor.
 */
class CallbackQueueTest
{
    /** Callbacks per allocation window, from each producer: garbage made per callback shows in every window. */
    private static final int WINDOW = 20_000;

    private final List<Reactor> reactors = new ArrayList<>();

    @AfterEach
    void stop()
    {
        reactors.forEach(Reactor::stop);
    }

    private Reactor reactor(final org.agrona.concurrent.IdleStrategy idle)
    {
        final Reactor reactor = new Reactor(new ReactorConfig().name("reactor").idleStrategy(idle).daemon(true));
        reactors.add(reactor);
        return reactor;
    }

    /**
     * Adds its value to a counter the reactor owns, and checks per-producer order.
     */
    static final class Add implements ReactorCallback
    {
        final Counter counter;
        int producer;
        long value;

        Add(final Counter counter)
        {
            this.counter = counter;
        }

        @Override
        public void onCallback(final long nowMillis)
        {
            counter.add(producer, value);
        }
    }

    /**
     * State owned by the reactor thread.
     */
    static final class Counter
    {
        final long[] next;
        volatile long total;
        volatile long calls;
        volatile String failure;

        Counter(final int producers)
        {
            next = new long[producers];
        }

        void add(final int producer, final long value)
        {
            if (value != next[producer]++ && failure == null)
            {
                failure = "producer " + producer + " out of order at " + value;
            }
            total += value;
            calls++;
        }
    }

    @Test
    void oneProducerAllocatesNothingOnEitherSideAfterWarmUp() throws Exception
    {
        final Reactor reactor = reactor(new BusySpinIdleStrategy());
        final Counter counter = new Counter(1);
        final CallbackQueue<Add> queue = reactor.callbackQueue(16, () -> new Add(counter));
        reactor.start();

        // This thread is the producer, and is measured: the window's wait allocates nothing either.
        final long[] sent = {0};
        final BooleanSupplier ran = () -> counter.calls == sent[0];
        final List<Long> windows = SteadyAllocation.perWindow(List.of(Thread.currentThread(), reactor.thread()), () ->
        {
            for (int i = 0; i < WINDOW; i++)
            {
                final Add add = queue.next(Thread::onSpinWait);
                add.value = sent[0]++;
                queue.flush();
            }
            Await.spinUntil("the window's callbacks to run", ran);
        });

        assertThat(counter.failure).isNull();
        assertThat(counter.total).isEqualTo(sent[0] * (sent[0] - 1) / 2);
        assertThat(windows).as("bytes allocated by the producer and the reactor per window of %d callbacks", WINDOW)
            .endsWith(0L);
    }

    @Test
    void manyProducersThroughAMuxKeepTheirOrderAndAllocateNothingOnTheReactor() throws Exception
    {
        // Small lanes fill often, so the producers' waiting path runs in every window too. Producer 0 goes
        // through the mux's thread lookup per call, the others keep their lane. The producers run a window's
        // callbacks each when told to, and wait for the next window without allocating.
        final int producers = 3;
        final Reactor reactor = reactor(new BusySpinIdleStrategy());
        final Counter counter = new Counter(producers);
        final CallbackMux<Add> mux = reactor.callbackMux(8, () -> new Add(counter), producers);
        reactor.start();

        final AtomicLong window = new AtomicLong();
        final AtomicInteger windowsDone = new AtomicInteger();
        final AtomicBoolean stop = new AtomicBoolean();
        final List<Thread> threads = ProducerThreads.start(producers, producer ->
        {
            final CallbackLane<Add> lane = producer == 0 ? null : mux.producerLane();
            long value = 0;
            for (long w = 1; ; w++)
            {
                while (window.get() < w)
                {
                    if (stop.get())
                    {
                        return;
                    }
                    Thread.yield();
                }
                for (int i = 0; i < WINDOW; i++)
                {
                    final Add add = lane == null ? mux.next(Thread::yield) : lane.next(Thread::yield);
                    add.producer = producer;
                    add.value = value++;
                    if (lane == null)
                    {
                        mux.flush();
                    }
                    else
                    {
                        lane.flush();
                    }
                }
                windowsDone.incrementAndGet();
            }
        });
        final List<Thread> measured = new ArrayList<>(threads);
        measured.add(reactor.thread());
        final List<Long> windows;
        try
        {
            windows = SteadyAllocation.perWindow(measured, () ->
            {
                final long w = window.incrementAndGet();
                Await.until(() -> "window " + w + ": " + windowsDone.get() + " producer windows, " + counter.calls +
                    " callbacks run", () -> windowsDone.get() == producers * w &&
                    counter.calls == producers * w * WINDOW, Duration.ofMinutes(2));
            });
        }
        finally
        {
            stop.set(true);
            ProducerThreads.join(threads, 60_000);
        }

        final long each = window.get() * WINDOW;
        assertThat(counter.failure).isNull();
        assertThat(counter.total).isEqualTo(producers * (each * (each - 1) / 2));
        assertThat(windows).as("bytes allocated by the producers and the reactor per window of %d callbacks each",
            WINDOW).endsWith(0L);
    }

    @Test
    void aKeptProducerLaneIsTheThreadsOwnLaneOfTheMux() throws Exception
    {
        final Reactor reactor = reactor(new BusySpinIdleStrategy());
        final Counter counter = new Counter(1);
        final CallbackMux<Add> mux = reactor.callbackMux(4, () -> new Add(counter), 1);
        reactor.start();
        final CallbackLane<Add> lane = mux.producerLane();
        // The lane and the mux's own calls on this thread fill one lane, so the order holds across both.
        for (int i = 0; i < 40; i += 2)
        {
            lane.next(Thread::yield).value = i;
            lane.flush();
            mux.next(Thread::yield).value = i + 1;
            mux.flush();
        }
        Await.until("all callbacks ran", () -> counter.calls == 40);
        assertThat(counter.failure).isNull();
        assertThat(mux.producerLane().next()).as("another handle on the same lane").isNotNull();

        final Throwable[] second = new Throwable[1];
        final Thread other = new Thread(() ->
        {
            try
            {
                mux.producerLane();
            }
            catch (final Throwable t)
            {
                second[0] = t;
            }
        });
        other.start();
        other.join(10_000);
        assertThat(second[0]).as("a producer past maxProducers").isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aPausedLaneFillsUntilFullThenRunsInOrderOnResume()
    {
        final Reactor reactor = reactor(new BusySpinIdleStrategy());
        final Counter counter = new Counter(1);
        final CallbackMux<Add> mux = reactor.callbackMux(4, () -> new Add(counter), 1);
        reactor.start();
        mux.pause();
        final CallbackLane<Add> lane = mux.producerLane();
        int filled = 0;
        Add add;
        while ((add = lane.next()) != null)
        {
            add.value = filled++;
            lane.flush();
        }
        twoFullCycles(reactor);
        assertThat(filled).as("the lane's capacity").isEqualTo(4);
        assertThat(counter.calls).as("callbacks run while paused").isZero();
        mux.resume();
        Await.until("the callbacks after resume", () -> counter.calls == 4);
        assertThat(counter.failure).isNull();
        assertThat(lane.next()).as("a carrier came back").isNotNull();
    }

    @Test
    void aSleepingReactorWakesForEveryFlush()
    {
        // A reactor that parks up to a whole second when idle: without the wake-up, 200 spaced callbacks
        // would need minutes; with it, each runs at once.
        final Reactor reactor = reactor(new BackoffIdleStrategy(1, 1, 1_000_000, 1_000_000_000));
        final Counter counter = new Counter(1);
        final CallbackQueue<Add> queue = reactor.callbackQueue(4, () -> new Add(counter));
        reactor.start();
        final long begin = System.nanoTime();
        for (int i = 0; i < 200; i++)
        {
            final Add add = queue.next(Thread::yield);
            add.value = i;
            queue.flush();
            final long sent = i + 1;
            Await.until(() -> "callback " + sent, () -> counter.calls == sent, Duration.ofSeconds(5));
            java.util.concurrent.locks.LockSupport.parkNanos(100_000);
        }
        assertThat(Duration.ofNanos(System.nanoTime() - begin)).isLessThan(Duration.ofSeconds(20));
        assertThat(counter.failure).isNull();
    }

    @Test
    void noWakeUpIsLostWhileTheReactorFallsAsleep()
    {
        // The reactor parks for a minute when idle, so one lost wake-up stalls a round far past its bound.
        // Each round publishes the moment the last callback ran, which is when the reactor falls asleep: a
        // producer whose look at the sleep flag passed its publication would leave the reactor asleep.
        final Reactor reactor = reactor(new ParkingIdleStrategy(Duration.ofMinutes(1).toNanos()));
        final Counter counter = new Counter(1);
        final CallbackQueue<Add> queue = reactor.callbackQueue(4, () -> new Add(counter));
        reactor.start();
        final long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        // Far below the reactor's minute of sleep, far above what a round waits for a core on a loaded machine.
        final long roundBound = Await.DEFAULT.toNanos();
        long sent = 0;
        while (sent < 1_000_000 && System.nanoTime() - end < 0)
        {
            final Add add = queue.next(Thread::yield);
            add.value = sent++;
            queue.flush();
            final long roundStart = System.nanoTime();
            while (counter.calls != sent)
            {
                if (System.nanoTime() - roundStart > roundBound)
                {
                    throw new AssertionError("the reactor slept through callback " + (sent - 1) + " of round " +
                        sent + ": a wake-up was lost");
                }
                Thread.onSpinWait();
            }
        }
        assertThat(sent).as("rounds run").isGreaterThan(100);
        assertThat(counter.failure).isNull();
    }

    @Test
    void aPausedQueueKeepsItsCallbacksUntilResumedAndTheResumeWakesTheReactor()
    {
        // The reactor parks for a minute when idle: only resume()'s wake-up makes the callbacks run in time.
        final Reactor reactor = reactor(new ParkingIdleStrategy(Duration.ofMinutes(1).toNanos()));
        final Counter counter = new Counter(1);
        final CallbackQueue<Add> queue = reactor.callbackQueue(4, () -> new Add(counter));
        reactor.start();
        queue.pause();
        assertThat(queue.isPaused()).isTrue();
        for (int i = 0; i < 4; i++)
        {
            final Add add = queue.next();
            assertThat(add).as("producers fill a paused queue").isNotNull();
            add.value = i;
            queue.flush();
        }
        assertThat(queue.next()).as("until it is full").isNull();
        twoFullCycles(reactor);
        assertThat(counter.calls).as("callbacks run while paused").isZero();

        queue.resume();
        assertThat(queue.isPaused()).isFalse();
        Await.until("the callbacks after resume", () -> counter.calls == 4, Duration.ofSeconds(20));
        assertThat(counter.failure).isNull();
        assertThat(queue.next()).as("their carriers came back").isNotNull();
    }

    @Test
    void aCallbackThatPausesItsOwnQueueIsTheLastToRun()
    {
        final Reactor reactor = reactor(new BusySpinIdleStrategy());
        final Counter counter = new Counter(1);
        final List<CallbackQueue<PausingAdd>> self = new ArrayList<>();
        final CallbackQueue<PausingAdd> queue = reactor.callbackQueue(8, () -> new PausingAdd(counter, self));
        self.add(queue);
        reactor.start();
        for (int i = 0; i < 5; i++)
        {
            final PausingAdd add = queue.next();
            add.value = i;
            add.pause = i == 1;
        }
        queue.flush();
        Await.until("the first two callbacks", () -> counter.calls == 2);
        twoFullCycles(reactor);
        assertThat(counter.calls).as("nothing ran after the pausing callback").isEqualTo(2);
        assertThat(queue.isPaused()).isTrue();
        queue.resume();
        Await.until("the rest, in order", () -> counter.calls == 5);
        assertThat(counter.failure).isNull();
    }

    @Test
    void aPausedMuxKeepsEveryLaneWaitingUntilResumed() throws Exception
    {
        final Reactor reactor = reactor(new ParkingIdleStrategy(Duration.ofMinutes(1).toNanos()));
        final int producers = 2;
        final Counter counter = new Counter(producers);
        final CallbackMux<Add> mux = reactor.callbackMux(4, () -> new Add(counter), producers);
        reactor.start();
        mux.pause();
        assertThat(mux.isPaused()).isTrue();
        ProducerThreads.runInTurn(producers, producer ->
        {
            for (int i = 0; i < 3; i++)
            {
                final Add add = mux.next();
                add.producer = producer;
                add.value = i;
                mux.flush();
            }
        }, 10_000);
        twoFullCycles(reactor);
        assertThat(counter.calls).as("callbacks run while paused").isZero();
        mux.resume();
        assertThat(mux.isPaused()).isFalse();
        Await.until("the callbacks after resume", () -> counter.calls == producers * 3, Duration.ofSeconds(20));
        assertThat(counter.failure).isNull();
    }

    /**
     * Returns once the reactor has run two more cycles, so a cycle that started after this call's beginning
     * drained every callback source.
     */
    private static void twoFullCycles(final Reactor reactor)
    {
        reactor.call(() -> { });
        reactor.call(() -> { });
    }

    /**
     * Adds its value like {@link Add}, and pauses its own queue when told to.
     */
    static final class PausingAdd implements ReactorCallback
    {
        final Counter counter;
        final List<CallbackQueue<PausingAdd>> queue;
        long value;
        boolean pause;

        PausingAdd(final Counter counter, final List<CallbackQueue<PausingAdd>> queue)
        {
            this.counter = counter;
            this.queue = queue;
        }

        @Override
        public void onCallback(final long nowMillis)
        {
            counter.add(0, value);
            if (pause)
            {
                queue.get(0).pause();
            }
        }
    }

    /**
     * Parks for a fixed, long time whenever a cycle found no work: only a wake-up ends the sleep early.
     */
    static final class ParkingIdleStrategy implements org.agrona.concurrent.IdleStrategy
    {
        private final long parkNanos;

        ParkingIdleStrategy(final long parkNanos)
        {
            this.parkNanos = parkNanos;
        }

        @Override
        public void idle(final int workCount)
        {
            if (workCount <= 0)
            {
                idle();
            }
        }

        @Override
        public void idle()
        {
            java.util.concurrent.locks.LockSupport.parkNanos(parkNanos);
        }

        @Override
        public void reset()
        {
        }
    }

    @Test
    void queuesAreBuiltBeforeStartOrOnTheReactorThread()
    {
        final Reactor reactor = reactor(new BusySpinIdleStrategy());
        reactor.start();
        assertThatThrownBy(() -> reactor.callbackQueue(4, () -> (ReactorCallback)now -> { }))
            .isInstanceOf(IllegalStateException.class);
        final CallbackQueue<?>[] built = new CallbackQueue<?>[1];
        reactor.call(() -> built[0] = reactor.callbackQueue(4, () -> (ReactorCallback)now -> { }));
        assertThat(built[0]).isNotNull();
    }

    @Test
    void aThrowingCallbackIsLoggedAndTheNextOneStillRuns()
    {
        final Reactor reactor = reactor(new BusySpinIdleStrategy());
        final Counter counter = new Counter(1);
        final CallbackQueue<Add> queue = reactor.callbackQueue(4, () -> new Add(counter));
        final CallbackQueue<ReactorCallback> failing = reactor.callbackQueue(4, () -> now ->
        {
            throw new IllegalStateException("callback failure, expected by the test");
        });
        reactor.start();
        failing.next();
        failing.flush();
        queue.next().value = 0;
        queue.flush();
        Await.until("the good callback", () -> counter.calls == 1);
        assertThat(reactor.isRunning()).isTrue();
        assertThat(failing.next()).as("the failed callback's carrier came back").isNotNull();
    }
}
