package io.celer.bench.peer.vertx;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import io.celer.bench.peer.server.PinnedThreads;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;

/**
 * A Vert.x server peer's one event loop, native transport when available, and its HTTP server on 127.0.0.1, as the
 * HTTP and WebSocket peers start and stop them.
 */
public final class VertxLoop
{
    private final Vertx vertx;
    private final Context context;

    /**
     * Starts Vert.x with one event loop.
     */
    public VertxLoop()
    {
        vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setPreferNativeTransport(true));
        if (!vertx.isNativeTransportEnabled())
        {
            System.err.println("native transport unavailable (" + vertx.unavailableNativeTransportCause() + ")");
        }
        context = vertx.getOrCreateContext();
    }

    /** @return the Vert.x instance, for timers. */
    public Vertx vertx()
    {
        return vertx;
    }

    /** @return runs tasks on the event loop. */
    public Executor executor()
    {
        return task -> context.runOnContext(v -> task.run());
    }

    /**
     * On the event loop: pins it, runs the peer's own set-up, then listens with {@code TCP_NODELAY} and a backlog of
     * 1024.
     *
     * @param cpu      the CPU to pin the loop to, or -1.
     * @param port     the port, 0 for an ephemeral one.
     * @param onLoop   the peer's set-up on the loop (timers), before it listens.
     * @param handlers sets the server's handlers.
     * @return the port listened on.
     * @throws Exception if it did not listen within 30 seconds.
     */
    public int listen(final int cpu, final int port, final Runnable onLoop, final UnaryOperator<HttpServer> handlers)
        throws Exception
    {
        return listen(cpu, port, 0, onLoop, handlers);
    }

    /**
     * As {@link #listen(int, int, Runnable, UnaryOperator)}, with each accepted connection's kernel send buffer set.
     *
     * @param cpu        the CPU to pin the loop to, or -1.
     * @param port       the port, 0 for an ephemeral one.
     * @param sendBuffer SO_SNDBUF of each accepted connection, 0 for the kernel's autotuning.
     * @param onLoop     the peer's set-up on the loop (timers), before it listens.
     * @param handlers   sets the server's handlers.
     * @return the port listened on.
     * @throws Exception if it did not listen within 30 seconds.
     */
    public int listen(final int cpu, final int port, final int sendBuffer, final Runnable onLoop,
        final UnaryOperator<HttpServer> handlers) throws Exception
    {
        final CompletableFuture<Integer> bound = new CompletableFuture<>();
        context.runOnContext(v ->
        {
            PinnedThreads.pin(cpu);
            onLoop.run();
            final HttpServerOptions options = new HttpServerOptions().setHost("127.0.0.1").setPort(port)
                .setAcceptBacklog(1024).setTcpNoDelay(true);
            if (sendBuffer > 0)
            {
                options.setSendBufferSize(sendBuffer);
            }
            handlers.apply(vertx.createHttpServer(options))
                .listen()
                .onComplete(ar ->
                {
                    if (ar.succeeded())
                    {
                        bound.complete(ar.result().actualPort());
                    }
                    else
                    {
                        bound.completeExceptionally(ar.cause());
                    }
                });
        });
        return bound.get(30, TimeUnit.SECONDS);
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
