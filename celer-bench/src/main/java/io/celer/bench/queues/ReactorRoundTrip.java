package io.celer.bench.queues;

import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.BusySpinIdleStrategy;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import io.celer.queue.CarrierQueue;
import io.celer.reactor.CallbackQueue;
import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorCallback;
import io.celer.reactor.ReactorConfig;

/**
 * Ping-pong through a running reactor, what an application feels when it hands work to one: the benchmark thread
 * writes a number into a pre-allocated callback and hands it over, the busy-spinning reactor runs it, which sends
 * the number back through a reply {@link CarrierQueue}, and the benchmark thread spins until it arrives.
 *
 * <p>Two ways in: {@link Reactor#callAsync(Runnable)} with one callback reused for every trip, and a
 * {@link CallbackQueue} whose callbacks stay in its ring. Neither allocates per trip.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ReactorRoundTrip
{
    /** Slots in the reply queue and the callback queue; one trip is in flight at a time. */
    private static final int CAPACITY = 1024;

    /**
     * Sends its number back to the benchmark thread; runs on the reactor thread.
     */
    static final class Answer implements Runnable, ReactorCallback
    {
        private final CarrierQueue<Message> reply;
        long value;

        Answer(final CarrierQueue<Message> reply)
        {
            this.reply = reply;
        }

        @Override
        public void run()
        {
            // One trip in flight: the reply queue always has room.
            reply.claim().value = value;
            reply.publish();
        }

        @Override
        public void onCallback(final long nowMillis)
        {
            run();
        }
    }

    /**
     * A started reactor and the queue its answers come back through; a subclass adds the way in.
     */
    public abstract static class ReactorState
    {
        final CarrierQueue<Message> reply = new CarrierQueue<>(CAPACITY, Message::new);
        Reactor reactor;
        long next;

        /**
         * Builds, before the reactor starts, what the benchmark hands it.
         *
         * @param reactor the reactor, not started yet.
         */
        abstract void build(Reactor reactor);

        /** Builds and starts the reactor. */
        @Setup(Level.Trial)
        public void setup()
        {
            reactor = new Reactor(new ReactorConfig().name("celer-reactor-echo")
                .idleStrategy(new BusySpinIdleStrategy()).daemon(true));
            build(reactor);
            reactor.start();
            RoundTripCounters.farEnd = reactor.thread();
        }

        /**
         * Waits for the answer to the trip in flight.
         *
         * @return the number that came back.
         */
        final long awaitAnswer()
        {
            Message answer;
            while ((answer = reply.poll()) == null)
            {
                if (!reactor.isRunning())
                {
                    throw new IllegalStateException("the reactor stopped");
                }
            }
            final long value = answer.value;
            reply.release();
            return value;
        }

        /** Stops the reactor. */
        @TearDown(Level.Trial)
        public void tearDown()
        {
            RoundTripCounters.farEnd = null;
            reactor.close();
        }
    }

    /** One callback, handed over by {@link Reactor#callAsync(Runnable)} for every trip. */
    @State(Scope.Thread)
    public static class CallAsync extends ReactorState
    {
        Answer answer;

        @Override
        void build(final Reactor reactor)
        {
            answer = new Answer(reply);
        }
    }

    /**
     * One round trip through {@link Reactor#callAsync(Runnable)}.
     *
     * @param state    the reactor.
     * @param counters round trips and allocation.
     * @return the number that came back.
     */
    @Benchmark
    public long callAsync(final CallAsync state, final RoundTripCounters counters)
    {
        final long sent = ++state.next;
        state.answer.value = sent;
        if (!state.reactor.callAsync(state.answer))
        {
            throw new IllegalStateException("the reactor's queue is full with one callback in flight");
        }
        return checked(sent, state.awaitAnswer(), counters);
    }

    /** A callback queue of pre-allocated answers. */
    @State(Scope.Thread)
    public static class Callbacks extends ReactorState
    {
        CallbackQueue<Answer> callbacks;

        @Override
        void build(final Reactor reactor)
        {
            callbacks = reactor.callbackQueue(CAPACITY, () -> new Answer(reply));
        }
    }

    /**
     * One round trip through a {@link CallbackQueue}.
     *
     * @param state    the reactor and its queue.
     * @param counters round trips and allocation.
     * @return the number that came back.
     */
    @Benchmark
    public long callbackQueue(final Callbacks state, final RoundTripCounters counters)
    {
        final long sent = ++state.next;
        final Answer answer = state.callbacks.next();
        if (answer == null)
        {
            throw new IllegalStateException("the callback queue is full with one callback in flight");
        }
        answer.value = sent;
        state.callbacks.flush();
        return checked(sent, state.awaitAnswer(), counters);
    }

    private static long checked(final long sent, final long answered, final RoundTripCounters counters)
    {
        if (answered != sent)
        {
            throw new IllegalStateException("sent " + sent + ", the reactor answered " + answered);
        }
        counters.roundTrips++;
        return answered;
    }
}
