package io.celer.bench.queues;

import java.util.Queue;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.OneToOneConcurrentArrayQueue;
import org.jctools.queues.SpscArrayQueue;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import com.lmax.disruptor.EventPoller;
import com.lmax.disruptor.RingBuffer;

import io.celer.queue.CarrierQueue;

/**
 * Ping-pong through two one-to-one queues: the benchmark thread sends a number, an echo thread sends it back
 * through the second queue, and the benchmark thread spins until it arrives. The score is the average round trip.
 *
 * <p>As in the throughput benchmarks, Agrona and JCTools take every message from the sender's
 * {@link MessagePool} and the receiver gives it back; Celer's carriers and the Disruptor's events stay in their
 * rings.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RoundTripLatency
{
    /** Slots in every queue and objects in every pool; one message is in flight at a time. */
    private static final int CAPACITY = 1024;

    /** Two Celer carrier queues. */
    @State(Scope.Thread)
    public static class Celer
    {
        CarrierQueue<Message> ping;
        CarrierQueue<Message> pong;
        Echo echo;
        long next;

        /** Builds the queues and starts the echo. */
        @Setup(Level.Trial)
        public void setup()
        {
            final CarrierQueue<Message> in = new CarrierQueue<>(CAPACITY, Message::new);
            final CarrierQueue<Message> out = new CarrierQueue<>(CAPACITY, Message::new);
            ping = in;
            pong = out;
            echo = new Echo("celer-echo", () ->
            {
                final Message request = in.poll();
                if (request == null)
                {
                    return false;
                }
                final Message reply = out.claim();
                reply.value = request.value;
                in.release();
                out.publish();
                return true;
            });
        }

        /**
         * Stops the echo.
         *
         * @throws InterruptedException if interrupted.
         */
        @TearDown(Level.Trial)
        public void tearDown() throws InterruptedException
        {
            echo.stop();
        }
    }

    /**
     * One round trip through Celer's queues.
     *
     * @param state    the queues.
     * @param counters round trips and allocation.
     * @return the number that came back.
     */
    @Benchmark
    public long celer(final Celer state, final RoundTripCounters counters)
    {
        final Message request = state.ping.claim();
        request.value = ++state.next;
        state.ping.publish();
        Message reply;
        while ((reply = state.pong.poll()) == null)
        {
            state.echo.check();
        }
        final long value = reply.value;
        state.pong.release();
        counters.roundTrips++;
        return value;
    }

    /**
     * Two queues that carry references, each message taken from its sender's pool and given back by its receiver.
     */
    static final class Pooled
    {
        private final Queue<Message> ping;
        private final Queue<Message> pong;
        private final MessagePool<Message> pingPool = new MessagePool<>(CAPACITY, Message::new);
        private final MessagePool<Message> pongPool = new MessagePool<>(CAPACITY, Message::new);
        private final Echo echo;
        private long next;

        Pooled(final String name, final Queue<Message> ping, final Queue<Message> pong)
        {
            this.ping = ping;
            this.pong = pong;
            final MessagePool<Message> requests = pingPool;
            final MessagePool<Message> replies = pongPool;
            echo = new Echo(name + "-echo", () ->
            {
                final Message request = ping.poll();
                if (request == null)
                {
                    return false;
                }
                final Message reply = replies.take();
                reply.value = request.value;
                requests.giveBack(request);
                pong.offer(reply);
                return true;
            });
        }

        long roundTrip()
        {
            final Message request = pingPool.take();
            request.value = ++next;
            ping.offer(request);
            Message reply;
            while ((reply = pong.poll()) == null)
            {
                echo.check();
            }
            final long value = reply.value;
            pongPool.giveBack(reply);
            return value;
        }

        void stop() throws InterruptedException
        {
            echo.stop();
        }
    }

    /**
     * Two queues of references with their pools and echo: what the Agrona and JCTools states share; a subclass
     * makes the queues.
     */
    public abstract static class PooledState
    {
        Pooled queues;

        /**
         * The queues and the echo.
         *
         * @return the pair.
         */
        abstract Pooled create();

        /** Builds the queues and starts the echo. */
        @Setup(Level.Trial)
        public void setup()
        {
            queues = create();
        }

        /**
         * Stops the echo.
         *
         * @throws InterruptedException if interrupted.
         */
        @TearDown(Level.Trial)
        public void tearDown() throws InterruptedException
        {
            queues.stop();
        }
    }

    /** Two Agrona one-to-one queues. */
    @State(Scope.Thread)
    public static class Agrona extends PooledState
    {
        @Override
        Pooled create()
        {
            return new Pooled("agrona", new OneToOneConcurrentArrayQueue<>(CAPACITY),
                new OneToOneConcurrentArrayQueue<>(CAPACITY));
        }
    }

    /**
     * One round trip through Agrona's queues.
     *
     * @param state    the queues.
     * @param counters round trips and allocation.
     * @return the number that came back.
     */
    @Benchmark
    public long agrona(final Agrona state, final RoundTripCounters counters)
    {
        counters.roundTrips++;
        return state.queues.roundTrip();
    }

    /** Two JCTools single-producer single-consumer queues. */
    @State(Scope.Thread)
    public static class JcTools extends PooledState
    {
        @Override
        Pooled create()
        {
            return new Pooled("jctools", new SpscArrayQueue<>(CAPACITY), new SpscArrayQueue<>(CAPACITY));
        }
    }

    /**
     * One round trip through JCTools' queues.
     *
     * @param state    the queues.
     * @param counters round trips and allocation.
     * @return the number that came back.
     */
    @Benchmark
    public long jctools(final JcTools state, final RoundTripCounters counters)
    {
        counters.roundTrips++;
        return state.queues.roundTrip();
    }

    /** Two single-producer Disruptor rings, each read through a poller. */
    @State(Scope.Thread)
    public static class Disruptor
    {
        RingBuffer<Message> ping;
        EventPoller<Message> replies;
        Reader reader;
        Echo echo;
        long next;

        /** Builds the rings and starts the echo. */
        @Setup(Level.Trial)
        public void setup()
        {
            ping = RingBuffer.createSingleProducer(Message::new, CAPACITY);
            final RingBuffer<Message> pong = RingBuffer.createSingleProducer(Message::new, CAPACITY);
            final EventPoller<Message> requests = ping.newPoller();
            ping.addGatingSequences(requests.getSequence());
            replies = pong.newPoller();
            pong.addGatingSequences(replies.getSequence());
            reader = new Reader(null, 1);
            final EventPoller.Handler<Message> forward = (request, sequence, endOfBatch) ->
            {
                final long slot = pong.next();
                pong.get(slot).value = request.value;
                pong.publish(slot);
                return true;
            };
            echo = new Echo("disruptor-echo",
                () -> Disruptors.poll(requests, forward) == EventPoller.PollState.PROCESSING);
        }

        /**
         * Stops the echo.
         *
         * @throws InterruptedException if interrupted.
         */
        @TearDown(Level.Trial)
        public void tearDown() throws InterruptedException
        {
            echo.stop();
        }
    }

    /**
     * One round trip through the Disruptor's rings.
     *
     * @param state    the rings.
     * @param counters round trips and allocation.
     * @return the number that came back.
     * @throws Exception never: the reader does not throw.
     */
    @Benchmark
    public long disruptor(final Disruptor state, final RoundTripCounters counters) throws Exception
    {
        final long slot = state.ping.next();
        state.ping.get(slot).value = ++state.next;
        state.ping.publish(slot);
        state.reader.startPoll();
        while (state.replies.poll(state.reader) != EventPoller.PollState.PROCESSING)
        {
            state.echo.check();
        }
        counters.roundTrips++;
        return state.reader.sum();
    }

    /**
     * The Disruptor's poll without its checked exception, for the echo's loop.
     */
    static final class Disruptors
    {
        private Disruptors()
        {
        }

        static EventPoller.PollState poll(final EventPoller<Message> poller, final EventPoller.Handler<Message> handler)
        {
            try
            {
                return poller.poll(handler);
            }
            catch (final RuntimeException ex)
            {
                throw ex;
            }
            catch (final Exception ex)
            {
                throw new IllegalStateException(ex);
            }
        }
    }
}
