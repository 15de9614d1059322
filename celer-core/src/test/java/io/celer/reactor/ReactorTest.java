package io.celer.reactor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.test.Await;
import io.celer.test.ProducerThreads;
import io.celer.test.Reactors;
import io.celer.test.SteadyAllocation;
import io.celer.reactor.internal.Poller;

class ReactorTest
{
    @RegisterExtension
    final Reactors reactors = new Reactors();

    @Test
    void aCallAllocatesNothingOnEitherThreadOnceTheCallingThreadHasMadeOne() throws Exception
    {
        final ReactorConfig[] configs = {
            new ReactorConfig().name("call-spinning"),
            new ReactorConfig().name("call-parking").idleStrategy(new BackoffIdleStrategy(10, 10, 1_000, 100_000)),
            new ReactorConfig().name("call-selecting").waitInSelector(true)};
        for (final ReactorConfig config : configs)
        {
            final Reactor reactor = reactors.start(config);
            final long[] runs = new long[1];
            final Runnable callback = () -> runs[0]++;
            final List<Long> windows = SteadyAllocation.perWindow(List.of(Thread.currentThread(), reactor.thread()),
                () ->
                {
                    for (int i = 0; i < 1_000; i++)
                    {
                        reactor.call(callback);
                    }
                });
            assertThat(windows).as("bytes per 1,000 calls, " + config.name()).last().isEqualTo(0L);
            assertThat(runs[0]).isPositive();
            reactor.close();
        }
    }

    @Test
    void aCallerThatStopsWaitingIsToldWhyAndItsNextCallStillWorks() throws Exception
    {
        final Reactor reactor = reactors.start("call-interrupted");
        final CountDownLatch release = new CountDownLatch(1);
        reactor.callAsync(() ->
        {
            try
            {
                release.await(); // holds the reactor, so the next call waits in its queue
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        });
        final AtomicInteger ranLate = new AtomicInteger();
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> reactor.call(ranLate::incrementAndGet)).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("interrupted");
        assertThat(Thread.interrupted()).as("the interrupt is kept").isTrue();
        release.countDown();
        final AtomicInteger ranNext = new AtomicInteger();
        reactor.call(ranNext::incrementAndGet);
        assertThat(ranNext).hasValue(1);
        assertThat(ranLate).as("the abandoned call still ran, once").hasValue(1);
    }

    @Test
    void itsIdleStrategyHearsOfWorkSoThatABackOffStartsOver()
    {
        final AtomicInteger busyCycles = new AtomicInteger();
        final org.agrona.concurrent.IdleStrategy idle = new org.agrona.concurrent.IdleStrategy()
        {
            @Override
            public void idle(final int workCount)
            {
                if (workCount > 0)
                {
                    busyCycles.incrementAndGet();
                }
                else
                {
                    Thread.onSpinWait();
                }
            }

            @Override
            public void idle()
            {
            }

            @Override
            public void reset()
            {
            }
        };
        final Reactor reactor = reactors.start("told", idle);
        for (int i = 0; i < 10; i++)
        {
            reactor.call(() -> { });
        }
        // Without it a backing-off strategy stays at its longest park once it got there.
        assertThat(busyCycles.get()).as("cycles with work the strategy was told of").isPositive();
    }

    @Test
    void runsAsyncCallbacksOnItsThreadInOrderPerProducer() throws Exception
    {
        final Reactor reactor = reactors.start("reactor");
        final int producers = 4;
        final int each = 10_000;
        final List<List<Integer>> seen = new ArrayList<>();
        final AtomicInteger foreignThread = new AtomicInteger();
        for (int p = 0; p < producers; p++)
        {
            seen.add(new ArrayList<>());
        }
        final List<Thread> threads = ProducerThreads.start(producers, producer ->
        {
            for (int i = 0; i < each; i++)
            {
                final int value = i;
                final Runnable callback = () ->
                {
                    if (!reactor.isReactorThread())
                    {
                        foreignThread.incrementAndGet();
                    }
                    seen.get(producer).add(value);
                };
                while (!reactor.callAsync(callback))
                {
                    Thread.yield();
                }
            }
        });
        ProducerThreads.join(threads, 60_000);
        reactor.call(() -> { }); // a barrier: everything queued before has run
        for (int p = 0; p < producers; p++)
        {
            final List<Integer> values = new ArrayList<>();
            final int producer = p;
            reactor.call(() -> values.addAll(seen.get(producer)));
            assertThat(values).hasSize(each).isSorted();
        }
        assertThat(foreignThread.get()).isZero();
    }

    @Test
    void callWaitsForTheResultAndRethrowsWhatTheCallbackThrew()
    {
        final Reactor reactor = reactors.start("reactor");
        final AtomicLong ranOn = new AtomicLong();
        reactor.call(() -> ranOn.set(Thread.currentThread().getId()));
        assertThat(ranOn.get()).isEqualTo(reactor.thread().getId());

        assertThatThrownBy(() -> reactor.call(() ->
        {
            throw new IllegalStateException("from the reactor");
        })).isInstanceOf(IllegalStateException.class).hasMessage("from the reactor");
        assertThat(reactor.isRunning()).as("a throwing callback does not kill the reactor").isTrue();
        reactor.call(() -> ranOn.set(-1));
        assertThat(ranOn.get()).isEqualTo(-1);
    }

    @Test
    void aFullCallbackQueueRefusesInsteadOfBlocking()
    {
        final Reactor reactor = new Reactor(new ReactorConfig().callbackQueueCapacity(4));
        int accepted = 0;
        while (reactor.callAsync(() -> { }))
        {
            accepted++;
        }
        assertThat(accepted).isEqualTo(4);
        reactor.stop();
    }

    @Test
    void timersFireAfterTheirDelayAndCancelledOnesDoNot() throws Exception
    {
        final Reactor reactor = reactors.start("reactor");
        final List<String> fired = new CopyOnWriteArrayList<>();
        final long[] start = new long[1];
        reactor.call(() ->
        {
            start[0] = reactor.nowMillis();
            reactor.schedule(30, (id, now) -> fired.add("late:" + (now - start[0])));
            final long cancelled = reactor.schedule(10, (id, now) -> fired.add("cancelled"));
            reactor.schedule(5, (id, now) -> fired.add("early:" + (now - start[0])));
            assertThat(reactor.cancelTimer(cancelled)).isTrue();
            assertThat(reactor.cancelTimer(cancelled)).isFalse();
        });
        Await.until("two timers", () -> fired.size() == 2);
        Thread.sleep(50);
        assertThat(fired).hasSize(2);
        assertThat(fired.get(0)).startsWith("early:");
        assertThat(fired.get(1)).startsWith("late:");
        assertThat(Long.parseLong(fired.get(0).substring(6))).isGreaterThanOrEqualTo(5);
        assertThat(Long.parseLong(fired.get(1).substring(5))).isGreaterThanOrEqualTo(30);
    }

    @Test
    void aThrowingTimerDoesNotStopTheOthersNorTheReactor()
    {
        final Reactor reactor = reactors.start("reactor");
        final AtomicInteger fired = new AtomicInteger();
        reactor.call(() ->
        {
            reactor.schedule(1, (id, now) ->
            {
                throw new IllegalStateException("timer failure, expected by the test");
            });
            reactor.schedule(2, (id, now) -> fired.incrementAndGet());
        });
        Await.until("the second timer", () -> fired.get() == 1);
        assertThat(reactor.isRunning()).isTrue();
    }

    @Test
    void aTimerScheduledAfterLongIdleFiresOnTime() throws Exception
    {
        final Reactor reactor = reactors.start("reactor", new BackoffIdleStrategy(1, 1, 1_000, 1_000_000));
        Thread.sleep(300); // the wheel's cursor must not have to catch up over this idle time
        // On time is judged on the reactor's clock and by its cycles, so that a reactor thread that waits for a
        // core on a loaded machine is not taken for a late timer: the timer must fire in the first cycle that
        // runs after its tick ends. A poller runs before the timers in each cycle, while the clock still shows
        // the cycle before.
        final AtomicLong scheduledAt = new AtomicLong(-1);
        final long[] previousCycle = {-1};
        final AtomicLong previousCycleWhenFired = new AtomicLong(-1);
        final AtomicLong firedAt = new AtomicLong(-1);
        reactor.call(() ->
        {
            scheduledAt.set(reactor.nowMillis());
            reactor.internals().addPoller(() ->
            {
                previousCycle[0] = reactor.nowMillis();
                return 0;
            });
            reactor.schedule(20, (id, now) ->
            {
                previousCycleWhenFired.set(previousCycle[0]);
                firedAt.set(now);
            });
        });
        Await.until("the timer", () -> firedAt.get() >= 0);
        assertThat(firedAt.get() - scheduledAt.get()).as("ms from scheduling to firing").isGreaterThanOrEqualTo(20);
        // The timer's tick ends at most a tick (about a millisecond) after its deadline, and the clock counts whole
        // milliseconds: a cycle that saw more than 22 ms pass would have fired it.
        assertThat(previousCycleWhenFired.get() - scheduledAt.get())
            .as("ms from scheduling to the cycle before the timer fired").isLessThanOrEqualTo(22);
    }

    @Test
    void startsOnceAndStopsFromItsOwnThread()
    {
        final Reactor reactor = reactors.start("reactor");
        assertThatThrownBy(reactor::start).isInstanceOf(IllegalStateException.class);
        reactor.callAsync(reactor::stop);
        reactor.awaitTermination();
        assertThat(reactor.isRunning()).isFalse();
        assertThatThrownBy(() -> reactor.call(() -> { })).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aStopWakesAReactorThatIsFallingAsleep()
    {
        // The reactor parks for a minute when idle: a stop that lands after the reactor last looked at its state,
        // on its way to sleep, must still wake it. Stopping at once after a callback ran aims at that moment; the
        // race is narrow, so it runs many times.
        for (int i = 0; i < 500; i++)
        {
            final Reactor reactor = new Reactor(new ReactorConfig().name("sleepy").daemon(true).callbackQueueCapacity(2)
                .idleStrategy(new CallbackQueueTest.ParkingIdleStrategy(Duration.ofMinutes(1).toNanos())));
            reactor.start();
            final AtomicBoolean ran = new AtomicBoolean();
            reactor.callAsync(() -> ran.set(true));
            final long deadline = System.nanoTime() + Await.DEFAULT.toNanos();
            while (!ran.get())
            {
                if (System.nanoTime() - deadline > 0)
                {
                    throw new AssertionError("the callback of round " + i + " did not run");
                }
                Thread.onSpinWait();
            }
            final long begin = System.nanoTime();
            reactor.stop();
            assertThat(Duration.ofNanos(System.nanoTime() - begin)).as("the stop of round %d", i)
                .isLessThan(Await.DEFAULT);
        }
    }

    @Test
    void pollsEachPollerEveryCycleUntilRemoved() throws Exception
    {
        final Reactor reactor = reactors.start("reactor");
        final AtomicLong polls = new AtomicLong();
        final Poller poller = () ->
        {
            polls.incrementAndGet();
            return 0;
        };
        reactor.call(() ->
        {
            reactor.internals().addPoller(poller);
            reactor.internals().addPoller(poller); // added once only
        });
        Await.until(() -> "polls: " + polls.get(), () -> polls.get() >= 1_000, java.time.Duration.ofSeconds(30));
        final AtomicInteger count = new AtomicInteger();
        reactor.call(() -> count.set(reactor.internals().pollerCount()));
        assertThat(count.get()).isEqualTo(1);

        reactor.call(() -> reactor.internals().removePoller(poller));
        final long after = polls.get();
        reactor.call(() -> { }); // a full cycle has passed since the removal
        reactor.call(() -> count.set(reactor.internals().pollerCount()));
        assertThat(polls.get()).isEqualTo(after);
        assertThat(count.get()).isZero();
    }

    @Test
    void aThrowingPollerIsDroppedAndTheReactorGoesOn() throws Exception
    {
        final Reactor reactor = reactors.start("reactor");
        final AtomicLong healthy = new AtomicLong();
        reactor.call(() ->
        {
            reactor.internals().addPoller(() ->
            {
                throw new IllegalStateException("poller failure, expected by the test");
            });
            reactor.internals().addPoller(() ->
            {
                healthy.incrementAndGet();
                return 0;
            });
        });
        Await.until(() -> "healthy polls: " + healthy.get(), () -> healthy.get() >= 100,
            java.time.Duration.ofSeconds(30));
        final AtomicInteger count = new AtomicInteger();
        reactor.call(() -> count.set(reactor.internals().pollerCount()));
        assertThat(count.get()).isEqualTo(1);
    }

    @Test
    void aSelectIntervalBelowOneCycleIsRefused()
    {
        assertThatThrownBy(() -> new ReactorConfig().selectInterval(0))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 1");
    }
}
