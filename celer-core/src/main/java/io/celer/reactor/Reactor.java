package io.celer.reactor;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.util.ArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import io.celer.counters.CounterScope;
import io.celer.counters.Counters;
import io.celer.queue.internal.ManyToOneQueue;
import io.celer.reactor.internal.Selectable;
import io.celer.reactor.internal.CpuPinning;
import io.celer.reactor.internal.Poller;
import io.celer.reactor.internal.LargeBufferBudget;
import io.celer.reactor.internal.ReactorInternals;
import io.celer.reactor.internal.CycleTask;
import io.celer.reactor.internal.Logs;
import io.celer.reactor.internal.SpinningReactors;

/**
 * A single-threaded, non-blocking event loop that owns a selector, timers and callback queue.
 *
 * <p>Every channel registered with a reactor, and every handler of those channels, runs on the reactor's one
 * thread. Other threads reach it only through {@link #callAsync(Runnable)}, {@link #call(Runnable)} and
 * {@link #execute(Runnable)}. In steady state a cycle allocates nothing: keys are selected with a
 * {@code Consumer}, timers live in a wheel, and callbacks in a pre-sized array queue.
 */
public final class Reactor implements AutoCloseable
{
    private static final System.Logger LOG = System.getLogger(Reactor.class.getName());

    private enum State
    {
        NEW, RUNNING, STOPPING, STOPPED
    }

    private final ReactorConfig config;
    private final LongestDispatch dispatches = new LongestDispatch();
    private final ReadyKeys readyKeys;
    private final IdleStrategy idleStrategy;
    private final boolean idleParks;
    private final boolean waitsInSelector;
    private final boolean checkThreads;
    private final ReactorTimers timers = new ReactorTimers(dispatches);
    private final ManyToOneQueue<Runnable> callbacks;
    private final Consumer<Runnable> callbackRunner = this::runCallback;
    private final ArrayList<CycleTask> cycleTasks = new ArrayList<>(1024);
    /** Queued for the next cycle; swapped with {@link #nextCycleRunning} when that cycle runs them. */
    private ArrayList<CycleTask> nextCycleTasks = new ArrayList<>(64);
    private ArrayList<CycleTask> nextCycleRunning = new ArrayList<>(64);
    private long cycle;
    private final CallbackSources callbackSources = new CallbackSources();
    private final BusyPollers pollers = new BusyPollers(dispatches);
    private final ReactorInternals internals = new Internals();
    private final LargeBufferBudget largeBuffers;
    private int cyclesToSelect;
    private final SleepFlag sleepFlag = new SleepFlag();
    private final long originNanos = System.nanoTime();
    private final CountDownLatch terminated = new CountDownLatch(1);
    private final CounterScope counterScope;
    private final ReactorCounters counters;
    private final StallReporter stalls;

    private volatile State state = State.NEW;
    private volatile Thread thread;
    private long nowNanos;
    private long nowMillis;
    /** When the last wait in the selector ended, {@code System.nanoTime()}. */
    private long wokeAt;
    private int lastCallbackDepth;

    /**
     * Builds a reactor with the default settings: busy spin, unpinned.
     *
     * @return a reactor, not yet started.
     */
    public static Reactor create()
    {
        return new Reactor(new ReactorConfig());
    }

    /**
     * Builds a reactor.
     *
     * @param config its settings.
     */
    public Reactor(final ReactorConfig config)
    {
        this.config = config;
        this.readyKeys = new ReadyKeys(config.selectorProvider(), dispatches, this::wokeUp);
        this.largeBuffers = new LargeBufferBudget(config.maxLargeBufferBytes());
        this.idleStrategy = config.idleStrategy();
        this.idleParks = !(idleStrategy instanceof BusySpinIdleStrategy ||
            idleStrategy instanceof NoOpIdleStrategy ||
            idleStrategy instanceof YieldingIdleStrategy);
        this.waitsInSelector = config.waitInSelector();
        this.checkThreads = config.checkThreads();
        this.callbacks = new ManyToOneQueue<>(config.callbackQueueCapacity());
        this.counterScope = Counters.process().scope(config.name());
        this.counters = new ReactorCounters(counterScope, config.stallThresholdNanos());
        this.stalls = new StallReporter(counterScope, config.stallThresholdNanos());
        StallLog.add(stalls);
    }

    /**
     * This reactor's counters, in the process's counters file ({@link Counters}) under its name: layers and
     * applications add theirs here at setup, and they are freed when the reactor stops.
     *
     * @return the scope, the same for the reactor's life.
     */
    public CounterScope counters()
    {
        return counterScope;
    }

    /**
     * Starts the reactor thread.
     *
     * @return this.
     * @throws IllegalStateException if it was started before.
     */
    public synchronized Reactor start()
    {
        if (state != State.NEW)
        {
            throw new IllegalStateException("reactor " + config.name() + " was already started");
        }
        final Thread t = new Thread(this::run, config.name());
        t.setDaemon(config.daemon());
        thread = t;
        state = State.RUNNING;
        t.start();
        return this;
    }

    /**
     * Stops the loop, closes every channel it owns and, unless called on the reactor thread, waits for it.
     */
    public void stop()
    {
        signalStop();
        if (!isReactorThread())
        {
            awaitTermination();
        }
    }

    /**
     * Tells the loop to stop, without waiting: a group stops all its members at once this way.
     */
    synchronized void signalStop()
    {
        if (state == State.NEW)
        {
            state = State.STOPPED;
            readyKeys.closeAll();
            StallLog.remove(stalls);
            counterScope.close();
            terminated.countDown();
            return;
        }
        if (state == State.RUNNING)
        {
            state = State.STOPPING;
        }
        wakeup();
    }

    /**
     * Same as {@link #stop()}.
     */
    @Override
    public void close()
    {
        stop();
    }

    /**
     * Whether the loop runs.
     *
     * @return true between {@link #start()} and {@link #stop()}.
     */
    public boolean isRunning()
    {
        return state == State.RUNNING;
    }

    /**
     * Whether the caller is the reactor thread.
     *
     * @return true on the reactor thread.
     */
    public boolean isReactorThread()
    {
        return Thread.currentThread() == thread;
    }

    /**
     * With {@link ReactorConfig#checkThreads} on, fails when called from a thread other than the running
     * reactor's; otherwise does nothing.
     *
     * @param operation what was called, for the message.
     * @throws IllegalStateException when called from another thread.
     */
    public void checkThread(final String operation)
    {
        if (checkThreads)
        {
            final Thread t = thread;
            if (t != null && t != Thread.currentThread() && state != State.STOPPED)
            {
                throw new IllegalStateException(operation + " called on thread " + Thread.currentThread().getName() +
                    ", not on reactor thread " + t.getName() + "; hand it over with call() or callAsync()");
            }
        }
    }

    /**
     * The reactor thread, or null before start.
     *
     * @return the thread.
     */
    public Thread thread()
    {
        return thread;
    }

    /**
     * The reactor clock, read once per cycle.
     *
     * @return monotonic milliseconds since the reactor was built.
     */
    public long nowMillis()
    {
        return nowMillis;
    }

    /**
     * Queues a callback to run on the reactor thread soon, in order per producer; never blocks.
     *
     * @param callback what to run.
     * @return false when the queue is full and the callback was not taken.
     */
    public boolean callAsync(final Runnable callback)
    {
        if (!callbacks.offer(callback))
        {
            counters.callbacksRefused.incrementShared();
            return false;
        }
        wakeup();
        return true;
    }

    /**
     * Runs a callback on the reactor thread and waits until it ran; runs it at once on the reactor thread.
     *
     * @param callback what to run.
     * @throws IllegalStateException if the reactor is not running.
     * @throws RuntimeException what the callback threw.
     */
    public void call(final Runnable callback)
    {
        if (isReactorThread())
        {
            callback.run();
            return;
        }
        final BlockingCall blockingCall = BlockingCall.of(callback);
        offer(blockingCall);
        blockingCall.await(this);
    }

    /**
     * Runs a task on the reactor thread: at once when called there, before start or after stop, else through
     * {@link #callAsync(Runnable)}, waiting for room in the queue if it is full.
     *
     * @param task what to run.
     */
    public void execute(final Runnable task)
    {
        if (thread == null || isReactorThread() || state == State.STOPPED)
        {
            task.run();
        }
        else
        {
            offer(task);
        }
    }

    /**
     * Makes a sleeping reactor look for work; call after publishing work for it. Free when the idle strategy
     * never parks; otherwise a full fence and a volatile read, plus an unpark while the reactor sleeps.
     */
    public void wakeup()
    {
        if ((waitsInSelector || idleParks) && sleepFlag.mayBeAsleep())
        {
            if (waitsInSelector)
            {
                readyKeys.wakeup();
            }
            else
            {
                LockSupport.unpark(thread);
            }
        }
    }

    /**
     * A garbage-free queue of pre-allocated callbacks for one producer thread; build before start or on the
     * reactor thread.
     *
     * @param capacity callbacks in flight, rounded up to a power of two.
     * @param factory  makes each callback once.
     * @param <T>      the callback type.
     * @return the queue, drained by this reactor every cycle.
     */
    public <T extends ReactorCallback> CallbackQueue<T> callbackQueue(
        final int capacity, final java.util.function.Supplier<? extends T> factory)
    {
        return addSource(new CallbackQueue<>(this, capacity, factory));
    }

    /**
     * A garbage-free mux of pre-allocated callbacks for many producer threads; build before start or on the
     * reactor thread.
     *
     * @param laneCapacity callbacks in flight per producer thread.
     * @param factory      makes each callback once.
     * @param maxProducers the most producer threads.
     * @param <T>          the callback type.
     * @return the mux, drained by this reactor every cycle.
     */
    public <T extends ReactorCallback> CallbackMux<T> callbackMux(
        final int laneCapacity, final java.util.function.Supplier<? extends T> factory, final int maxProducers)
    {
        return addSource(new CallbackMux<>(this, laneCapacity, factory, maxProducers));
    }

    private <S extends CallbackSource> S addSource(final S source)
    {
        if (thread != null && !isReactorThread())
        {
            throw new IllegalStateException("build callback queues before start or on the reactor thread");
        }
        callbackSources.add(source);
        return source;
    }

    void runCallback(final ReactorCallback callback)
    {
        dispatches.start(callback);
        try
        {
            callback.onCallback(nowMillis);
        }
        catch (final Throwable t)
        {
            Logs.log(LOG, System.Logger.Level.ERROR, "callback " + callback + " failed", t);
        }
    }

    /**
     * Schedules a callback on the reactor thread; call on the reactor thread.
     *
     * @param delayMillis milliseconds from this cycle's clock: fires never before, and at the latest at the first
     *                    cycle after the wheel's tick holding the deadline (about 1.05 ms) has ended; under 10 ms,
     *                    at the first cycle after the deadline (0: the next cycle) when no other short timer is
     *                    due first.
     * @param callback what to call.
     * @return the timer id, for {@link #cancelTimer(long)}.
     */
    public long schedule(final long delayMillis, final TimerCallback callback)
    {
        checkThread("Reactor.schedule");
        return timers.schedule(nowNanos, delayMillis, callback);
    }

    /**
     * Cancels a timer; call on the reactor thread.
     *
     * @param timerId an id from {@link #schedule}.
     * @return true if the timer was pending.
     */
    public boolean cancelTimer(final long timerId)
    {
        checkThread("Reactor.cancelTimer");
        return timers.cancel(timerId);
    }

    /**
     * The reactor's plumbing for Celer's own channels (selector registration, busy pollers, end-of-cycle tasks);
     * not for applications, and free to change in any release.
     *
     * @return the plumbing, the same object for the reactor's life.
     */
    public ReactorInternals internals()
    {
        return internals;
    }

    /**
     * Bytes of large per-message buffers its connections hold now, within {@link ReactorConfig#maxLargeBufferBytes}.
     *
     * @return bytes, read from any thread.
     */
    public long largeBufferBytes()
    {
        return largeBuffers.held();
    }

    /**
     * Large messages refused for want of room within {@link ReactorConfig#maxLargeBufferBytes}.
     *
     * @return the count since start, read from any thread.
     */
    public long largeBufferRefusals()
    {
        return largeBuffers.refused();
    }

    /** The plumbing behind {@link #internals()}, one object made with the reactor. */
    private final class Internals implements ReactorInternals
    {
        @Override
        public SelectionKey register(final SelectableChannel channel, final int ops, final Selectable owner)
            throws ClosedChannelException
        {
            return readyKeys.register(channel, ops, owner);
        }

        @Override
        public SelectionKey register(final StreamSocket socket, final int ops, final Selectable owner)
            throws ClosedChannelException
        {
            return readyKeys.register(socket, ops, owner);
        }

        @Override
        public java.nio.channels.spi.SelectorProvider selectorProvider()
        {
            return config.selectorProvider();
        }

        @Override
        public boolean confinesChannelIo()
        {
            return DefaultTransport.confinesChannelIo(config.selectorProvider());
        }

        @Override
        public void releaseClosedChannels() throws IOException
        {
            checkThread("Reactor.releaseClosedChannels");
            if (state != State.STOPPED)
            {
                // After a stop, closing the selector released them; a task run inline then may be on any thread.
                readyKeys.releaseCancelled(thread == null);
            }
        }

        @Override
        public void addPoller(final Poller poller)
        {
            checkThread("Reactor.addPoller");
            pollers.add(poller);
        }

        @Override
        public void removePoller(final Poller poller)
        {
            checkThread("Reactor.removePoller");
            pollers.remove(poller);
        }

        @Override
        public int pollerCount()
        {
            return pollers.count();
        }

        @Override
        public LargeBufferBudget largeBuffers()
        {
            return largeBuffers;
        }

        @Override
        public void runAtEndOfCycle(final CycleTask task)
        {
            cycleTasks.add(task);
        }

        @Override
        public void runNextCycle(final CycleTask task)
        {
            nextCycleTasks.add(task);
        }

        @Override
        public long cycle()
        {
            return cycle;
        }
    }

    /**
     * Waits until the reactor thread has exited.
     */
    public void awaitTermination()
    {
        try
        {
            terminated.await();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    private void offer(final Runnable task)
    {
        while (!callbacks.offer(task))
        {
            if (state == State.STOPPED)
            {
                throw new IllegalStateException("reactor " + config.name() + " has stopped");
            }
            wakeup();
            Thread.yield();
        }
        wakeup();
    }

    private void run()
    {
        final boolean spins = !(waitsInSelector || idleParks);
        if (spins)
        {
            SpinningReactors.started();
        }
        if (config.cpu() >= 0 && !CpuPinning.pinCurrentThread(config.cpu()))
        {
            Logs.log(LOG, System.Logger.Level.WARNING, "could not pin " + config.name() + " to CPU " + config.cpu());
        }
        try
        {
            long cycleStart = System.nanoTime();
            while (state == State.RUNNING)
            {
                final boolean selectorSleeps = waitsInSelector && pollers.count() == 0;
                final int work;
                if (selectorSleeps && nextCycleTasks.isEmpty())
                {
                    final int selected = awaitThenSelect();
                    cycleStart = waited(cycleStart, wokeAt);
                    work = selected + doWorkAfterSelect();
                }
                else
                {
                    dispatches.begin(cycleStart);
                    work = doWork();
                }
                final long cycleEnd = System.nanoTime();
                dispatches.at(cycleEnd);
                final long cycleNanos = cycleEnd - cycleStart;
                cycleStart = cycleEnd;
                if (counters.cycle(work, cycleNanos))
                {
                    stalls.stalled(cycleNanos, dispatches.longest(), dispatches.longestNanos());
                    // The report is not the next cycle's work: its first time for a culprit makes counters.
                    cycleStart = System.nanoTime();
                }
                if (work == 0 && idleParks && !selectorSleeps)
                {
                    // Announce the sleep, then look once more: a producer that published before seeing the
                    // flag is caught by the second look, one that published after it will unpark us. Both
                    // sides fence between their store and their load (see SleepFlag). A stop is such a
                    // publication too: one that came after the loop last read the state is seen here.
                    counters.write();
                    sleepFlag.fallAsleep();
                    if (state == State.RUNNING && callbacks.isEmpty() && !callbackSources.hasPublished())
                    {
                        idleStrategy.idle(0);
                    }
                    sleepFlag.wakeUp();
                    cycleStart = waited(cycleEnd, System.nanoTime());
                }
                else if (!selectorSleeps)
                {
                    idleStrategy.idle(work); // work resets a backing-off strategy
                }
            }
        }
        catch (final Throwable t)
        {
            Logs.log(LOG, System.Logger.Level.ERROR, "reactor " + config.name() + " failed", t);
        }
        finally
        {
            state = State.STOPPED;
            if (spins)
            {
                SpinningReactors.stopped();
            }
            callbacks.drain(callbackRunner);
            readyKeys.closeAll();
            StallLog.remove(stalls);
            counters.write();
            counterScope.close();
            terminated.countDown();
        }
    }

    /**
     * Waits in the selector until a channel is ready, the timer wheel needs a look, or another thread wakes it,
     * then hands what is ready to its owners in the same system call: one per wake-up, where a wait followed by
     * a select would make two, and the select that finds nothing before the wait a third. The wait is announced
     * as a park is (see {@link SleepFlag}), so that a callback published meanwhile is not missed; when one is
     * already there, or a timer is due, the select does not wait.
     *
     * @return the channels handed to their owners.
     */
    private int awaitThenSelect() throws IOException
    {
        cycle++;
        sleepFlag.fallAsleep();
        if (state == State.RUNNING && callbacks.isEmpty() && !callbackSources.hasPublished())
        {
            final long nanos = timers.nanosToNextLook(nowNanos);
            if (nanos != 0)
            {
                // What was counted before the wait is readable whole while the reactor sleeps.
                counters.write();
                return readyKeys.awaitThenSelect(nanos < 0 ? 0 : Math.max(1, (nanos + 999_999) / 1_000_000));
            }
        }
        wokeUp();
        return readyKeys.select();
    }

    /**
     * Ends a wait, before any owner runs: owners see the time after it, and producers stop waking the selector.
     */
    private void wokeUp()
    {
        sleepFlag.wakeUp();
        wokeAt = advanceClock();
        dispatches.begin(wokeAt);
    }

    /** Counts a wait as idle time, not as part of the next cycle, which may find work. */
    private long waited(final long from, final long to)
    {
        counters.waited(to - from);
        return to;
    }

    /** Returns the {@code System.nanoTime()} read: a boundary between units of work too. */
    private long advanceClock()
    {
        final long now = System.nanoTime();
        nowNanos = now - originNanos;
        nowMillis = nowNanos / 1_000_000L;
        return now;
    }

    private int doWork() throws IOException
    {
        cycle++;
        int work = 0;
        if (pollers.count() == 0 || --cyclesToSelect <= 0)
        {
            cyclesToSelect = config.selectInterval();
            work = readyKeys.select();
        }
        return work + doWorkAfterSelect();
    }

    /** The cycle after its select: polls, queued tasks, timers, callbacks, end-of-cycle tasks. */
    private int doWorkAfterSelect()
    {
        int work = pollers.pollAll();
        work += runQueuedForThisCycle();
        dispatches.at(advanceClock());
        final int fired = timers.expire(nowNanos);
        final int called = callbacks.drain(callbackRunner);
        final int drained = called + callbackSources.drainAll();
        if (fired + drained != 0)
        {
            counters.timersFired.add(fired);
            counters.callbacksRun.add(drained);
            counters.callbackDepth.set(called);
        }
        else if (lastCallbackDepth != 0)
        {
            counters.callbackDepth.set(0);
        }
        lastCallbackDepth = called;
        work += fired + drained;
        final int tasks = cycleTasks.size();
        if (tasks > 0)
        {
            // Tasks queued while these run (a flush that closes, say) join the same pass.
            for (int i = 0; i < cycleTasks.size(); i++)
            {
                final CycleTask task = cycleTasks.get(i);
                dispatches.start(task);
                task.endOfCycle();
            }
            cycleTasks.clear();
            work += tasks;
        }
        return work + nextCycleTasks.size(); // queued for the next cycle: no waiting for I/O before it
    }

    /** Runs what earlier cycles queued for this one, after its I/O; what they queue goes to the next. */
    private int runQueuedForThisCycle()
    {
        final ArrayList<CycleTask> due = nextCycleTasks;
        final int count = due.size();
        if (count == 0)
        {
            return 0;
        }
        nextCycleTasks = nextCycleRunning;
        nextCycleRunning = due;
        for (int i = 0; i < count; i++)
        {
            final CycleTask task = due.get(i);
            dispatches.start(task);
            task.endOfCycle();
        }
        due.clear();
        return count;
    }

    private void runCallback(final Runnable callback)
    {
        dispatches.start(callback instanceof BlockingCall ? ((BlockingCall)callback).callback() : callback);
        try
        {
            callback.run();
        }
        catch (final Throwable t)
        {
            if (callback instanceof BlockingCall)
            {
                ((BlockingCall)callback).fail(t);
            }
            else
            {
                Logs.log(LOG, System.Logger.Level.ERROR, "callback " + callback + " failed", t);
            }
        }
    }

    @Override
    public String toString()
    {
        return "Reactor[" + config.name() + ", " + state + "]";
    }

    /**
     * Whether the loop has ended, or was stopped before it started.
     */
    boolean hasStopped()
    {
        return state == State.STOPPED;
    }

    String name()
    {
        return config.name();
    }
}
