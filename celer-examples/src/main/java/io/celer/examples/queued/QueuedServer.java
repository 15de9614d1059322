package io.celer.examples.queued;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import io.celer.framing.LineFraming;
import io.celer.queue.CarrierDemux;
import io.celer.queue.CarrierQueue;
import io.celer.reactor.CallbackMux;
import io.celer.reactor.Reactor;
import io.celer.tcp.Connection;
import io.celer.tcp.Handler;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;

/**
 * A line server whose work runs on worker threads, never on the reactor: answers each line {@code X} with
 * {@code <length of X>: X}.
 *
 * <p>The reactor copies each request into a pre-allocated carrier of a {@link CarrierDemux} and goes back to
 * its sockets; a worker computes the answer into a pre-allocated {@link io.celer.reactor.ReactorCallback}
 * of a {@link CallbackMux}; the reactor runs it, finds the connection by id and writes the answer (a
 * connection that closed meanwhile is skipped). After warm-up nothing on this path allocates.
 *
 * <p><b>Lanes.</b> A line starting with {@code heavy } goes to the heavy lane, served by its own workers, so
 * slow requests never hold up light ones. Within a lane, the demux picks a worker by connection id, so one
 * connection's requests are answered in order. Across lanes there is no order: a light request sent after a
 * heavy one is usually answered first.
 *
 * <p><b>Full queue.</b> The reactor never waits for a worker: when the queue of the worker a request maps to
 * is full, the request is answered at once with {@code busy: X} and dropped. That answer may overtake answers
 * to earlier requests of the same connection still being worked on; it names the line it refuses, so the
 * client can send it again. Make the lanes longer, or add workers, if clients see it often.
 */
public final class QueuedServer implements Handler
{
    /** The longest request line accepted; a longer one closes the connection. */
    public static final int MAX_LINE_LENGTH = 1024;
    /** Workers of the light lane by default. */
    public static final int DEFAULT_WORKERS = 4;
    /** Workers of the heavy lane by default. */
    public static final int DEFAULT_HEAVY_WORKERS = 1;
    /** How long a heavy request takes by default, in milliseconds. */
    public static final long DEFAULT_HEAVY_WORK_MILLIS = 5;
    /** Requests queued per worker by default. */
    public static final int DEFAULT_QUEUE_CAPACITY = 1024;

    private static final byte[] HEAVY = {'h', 'e', 'a', 'v', 'y', ' '};
    private static final byte[] BUSY = {'b', 'u', 's', 'y', ':', ' '};
    // A length of up to ten digits, a colon and a space before the line.
    private static final int MAX_ANSWER_LENGTH = MAX_LINE_LENGTH + 12;

    private final Reactor reactor;
    private final TcpServer server;
    private final CarrierDemux<RequestCarrier> lightLane;
    private final CarrierDemux<RequestCarrier> heavyLane;
    private final CallbackMux<AnswerCallback> answers;
    private final LaneWorker[] workers;
    private final byte[] busyAnswer = new byte[BUSY.length + MAX_LINE_LENGTH];
    private volatile long answered;
    private volatile long refused;
    private volatile long skipped;
    private boolean started;

    /**
     * A server with the default lanes.
     *
     * @param reactor     the reactor that runs it.
     * @param port        the port, 0 for an ephemeral one.
     * @param base     where to listen, the transport (TLS) and socket options; the framing is added here.
     * @param workers     workers of the light lane.
     */
    public QueuedServer(final Reactor reactor, final int port, final TcpConfig base, final int workers)
    {
        this(reactor, port, base, workers, DEFAULT_HEAVY_WORKERS, DEFAULT_HEAVY_WORK_MILLIS,
            DEFAULT_QUEUE_CAPACITY);
    }

    /**
     * A server; build it before the reactor starts or from any thread while it runs.
     *
     * @param reactor         the reactor that runs it.
     * @param port            the port, 0 for an ephemeral one.
     * @param base         where to listen, the transport (TLS) and socket options; the framing is added here.
     * @param workers         workers of the light lane.
     * @param heavyWorkers    workers of the heavy lane.
     * @param heavyWorkMillis how long a heavy request takes to work out, 0 for no delay.
     * @param queueCapacity   requests queued per worker before {@code busy}, rounded up to a power of two.
     */
    public QueuedServer(
        final Reactor reactor,
        final int port,
        final TcpConfig base,
        final int workers,
        final int heavyWorkers,
        final long heavyWorkMillis,
        final int queueCapacity)
    {
        if (workers < 1 || heavyWorkers < 1)
        {
            throw new IllegalArgumentException("each lane needs a worker: " + workers + " light, " + heavyWorkers +
                " heavy");
        }
        if (heavyWorkMillis < 0)
        {
            throw new IllegalArgumentException("heavy work must not take negative time: " + heavyWorkMillis);
        }
        this.reactor = reactor;
        lightLane = new CarrierDemux<>(workers, queueCapacity, () -> new RequestCarrier(MAX_LINE_LENGTH));
        heavyLane = new CarrierDemux<>(heavyWorkers, queueCapacity, () -> new RequestCarrier(MAX_LINE_LENGTH));
        answers = newAnswers(reactor, queueCapacity, workers + heavyWorkers);
        this.workers = new LaneWorker[workers + heavyWorkers];
        for (int i = 0; i < workers; i++)
        {
            this.workers[i] = new LaneWorker(reactor, lightLane.lane(i), answers, 0, "celer-light-worker-" + i);
        }
        final long heavyWorkNanos = TimeUnit.MILLISECONDS.toNanos(heavyWorkMillis);
        for (int i = 0; i < heavyWorkers; i++)
        {
            this.workers[workers + i] =
                new LaneWorker(reactor, heavyLane.lane(i), answers, heavyWorkNanos, "celer-heavy-worker-" + i);
        }
        System.arraycopy(BUSY, 0, busyAnswer, 0, BUSY.length);
        final TcpConfig config = base.copy()
            .framing(() -> new LineFraming(MAX_LINE_LENGTH));
        server = new TcpServer(reactor, port, config, this);
    }

    private CallbackMux<AnswerCallback> newAnswers(final Reactor reactor, final int capacity, final int producers)
    {
        // A reactor builds its callback queues on its own thread once it runs.
        if (reactor.thread() == null || reactor.isReactorThread())
        {
            return reactor.callbackMux(capacity, () -> new AnswerCallback(this, MAX_ANSWER_LENGTH), producers);
        }
        final Object[] built = new Object[1];
        reactor.call(() -> built[0] =
            reactor.callbackMux(capacity, () -> new AnswerCallback(this, MAX_ANSWER_LENGTH), producers));
        @SuppressWarnings("unchecked")
        final CallbackMux<AnswerCallback> mux = (CallbackMux<AnswerCallback>)built[0];
        return mux;
    }

    /**
     * Starts the workers and listening, from any thread.
     *
     * @return this.
     */
    public synchronized QueuedServer open()
    {
        // Binding first: a port in use leaves no worker thread behind.
        server.open();
        if (!started)
        {
            started = true;
            for (final LaneWorker worker : workers)
            {
                worker.start();
            }
        }
        return this;
    }

    /**
     * Stops listening, closes every connection and stops the workers, from any thread.
     */
    public synchronized void close()
    {
        server.close();
        for (final LaneWorker worker : workers)
        {
            worker.stop();
        }
        for (final LaneWorker worker : workers)
        {
            worker.join();
        }
    }

    /**
     * The address it listens on.
     *
     * @return the address, or null before open.
     */
    public InetSocketAddress localAddress()
    {
        return server.localAddress();
    }

    /**
     * The TCP server underneath.
     *
     * @return the server.
     */
    public TcpServer server()
    {
        return server;
    }

    /**
     * Answers written to their connections so far; readable from any thread.
     *
     * @return the count.
     */
    public long answered()
    {
        return answered;
    }

    /**
     * Requests refused with {@code busy} because their worker's queue was full.
     *
     * @return the count.
     */
    public long refused()
    {
        return refused;
    }

    /**
     * Answers dropped because their connection had closed.
     *
     * @return the count.
     */
    public long skipped()
    {
        return skipped;
    }

    /**
     * The worker threads, light lane first; for tests and monitoring.
     *
     * @return a copy.
     */
    public Thread[] workerThreads()
    {
        final Thread[] threads = new Thread[workers.length];
        for (int i = 0; i < workers.length; i++)
        {
            threads[i] = workers[i].thread();
        }
        return threads;
    }

    /**
     * Hands the line to a worker of its lane: the one its connection maps to, so its order is kept.
     */
    @Override
    public void message(final Connection connection, final ByteBuffer line)
    {
        final CarrierDemux<RequestCarrier> lane = startsWith(line, HEAVY) ? heavyLane : lightLane;
        final long id = connection.id();
        final CarrierQueue<RequestCarrier> queue = lane.lane(lane.laneOf(id));
        final RequestCarrier request = queue.claim();
        if (request == null)
        {
            refuse(connection, line);
            return;
        }
        request.fill(id, line);
        queue.publish();
    }

    private void refuse(final Connection connection, final ByteBuffer line)
    {
        final int length = line.remaining();
        line.get(busyAnswer, BUSY.length, length);
        refused++;
        connection.write(busyAnswer, 0, BUSY.length + length);
    }

    /**
     * Writes a worker's answer to its connection, if still open; on the reactor thread. The write goes out
     * with the others of this reactor cycle.
     */
    void deliver(final long connectionId, final byte[] answer, final int length)
    {
        final Connection connection = server.connection(connectionId);
        if (connection == null)
        {
            skipped++;
            return;
        }
        answered++;
        connection.write(answer, 0, length);
    }

    private static boolean startsWith(final ByteBuffer buffer, final byte[] prefix)
    {
        final int start = buffer.position();
        if (buffer.limit() - start < prefix.length)
        {
            return false;
        }
        for (int i = 0; i < prefix.length; i++)
        {
            if (buffer.get(start + i) != prefix[i])
            {
                return false;
            }
        }
        return true;
    }
}
