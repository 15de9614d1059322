package io.celer.bench.peer.vertx;

import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.UnaryOperator;

import io.celer.bench.peer.server.PeerOptions;
import io.celer.bench.peer.server.PinnedThreads;
import io.vertx.core.AbstractVerticle;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;

/**
 * A Vert.x server peer's event loops, native transport when available, and its HTTP server on 127.0.0.1, as the
 * HTTP and WebSocket peers start and stop them.
 *
 * <p>A Vert.x HTTP server serves from the event loop of the context that made it: to serve from N loops, N
 * instances of one verticle each make a server on the same port (a negative port when it is random, so that they
 * share it), and Vert.x hands the accepted connections to them in turn.
 */
public final class VertxLoop
{
    private final Vertx vertx;
    private final int loops;

    /**
     * Starts Vert.x with its event loops.
     *
     * @param loops how many, at least 1.
     */
    public VertxLoop(final int loops)
    {
        this.loops = loops;
        vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(loops).setPreferNativeTransport(true));
        if (!vertx.isNativeTransportEnabled())
        {
            System.err.println("native transport unavailable (" + vertx.unavailableNativeTransportCause() + ")");
        }
    }

    /** @return the Vert.x instance, for timers. */
    public Vertx vertx()
    {
        return vertx;
    }

    /**
     * On each event loop: pins it, runs the peer's own set-up, then listens with {@code TCP_NODELAY} and a backlog
     * of 1024.
     *
     * @param options    the port, and the CPU of each loop.
     * @param sendBuffer SO_SNDBUF of each accepted connection, 0 for the kernel's autotuning.
     * @param perLoop    on each loop, given what runs tasks on it: sets up what its connections share (timers,
     *                   counts) and gives what sets its server's handlers.
     * @return the port listened on.
     * @throws Exception if it did not listen within 30 seconds.
     */
    public int listen(final PeerOptions options, final int sendBuffer,
        final Function<Executor, UnaryOperator<HttpServer>> perLoop) throws Exception
    {
        // Vert.x 4.2+: servers of a negative port share one random port; those of port 0 get one each.
        final int port = options.port() == 0 && loops > 1 ? -1 : options.port();
        final AtomicInteger made = new AtomicInteger();
        final AtomicInteger bound = new AtomicInteger(-1);
        vertx.deployVerticle(() -> new Member(made.getAndIncrement(), options, port, sendBuffer, perLoop, bound),
            new DeploymentOptions().setInstances(loops)).toCompletionStage().toCompletableFuture()
            .get(30, TimeUnit.SECONDS);
        return bound.get();
    }

    /**
     * One event loop's server: a verticle instance, whose context is that loop's.
     */
    private static final class Member extends AbstractVerticle
    {
        private final int index;
        private final PeerOptions options;
        private final int port;
        private final int sendBuffer;
        private final Function<Executor, UnaryOperator<HttpServer>> perLoop;
        private final AtomicInteger bound;

        Member(final int index, final PeerOptions options, final int port, final int sendBuffer,
            final Function<Executor, UnaryOperator<HttpServer>> perLoop, final AtomicInteger bound)
        {
            this.index = index;
            this.options = options;
            this.port = port;
            this.sendBuffer = sendBuffer;
            this.perLoop = perLoop;
            this.bound = bound;
        }

        @Override
        public void start(final Promise<Void> started)
        {
            PinnedThreads.pin(options.cpuOf(index));
            final UnaryOperator<HttpServer> handlers = perLoop.apply(task -> context.runOnContext(v -> task.run()));
            final HttpServerOptions server = new HttpServerOptions().setHost("127.0.0.1").setPort(port)
                .setAcceptBacklog(1024).setTcpNoDelay(true);
            if (sendBuffer > 0)
            {
                server.setSendBufferSize(sendBuffer);
            }
            handlers.apply(vertx.createHttpServer(server)).listen().onComplete(ar ->
            {
                if (ar.succeeded())
                {
                    bound.set(ar.result().actualPort());
                    started.complete();
                }
                else
                {
                    started.fail(ar.cause());
                }
            });
        }
    }

    /** Closes Vert.x, waiting up to 5 seconds. */
    public void close()
    {
        try
        {
            vertx.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
        }
        catch (final Exception ex)
        {
            System.err.println("vert.x did not close: " + ex);
        }
    }
}
