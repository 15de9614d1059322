package io.celer.bench.http.peer;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.vertx.core.Context;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * Vert.x 4 as TechEmpower's Vert.x plaintext entry writes it: one event loop, native transport when available,
 * header names and values pre-encoded ({@link HttpHeaders#createOptimized}), the Date value remade by a periodic
 * timer. Also {@code /gettimeblock}, closing the connection after it.
 */
@Command(name = "vertx-http", mixinStandardHelpOptions = true,
    description = "HTTP peer: a Vert.x 4 HTTP server on one event loop.")
public final class VertxHttpServer implements PeerServer
{
    private static final CharSequence SERVER_NAME = HttpHeaders.createOptimized("Server");
    private static final CharSequence DATE_NAME = HttpHeaders.createOptimized("Date");
    private static final CharSequence CONTENT_TYPE_NAME = HttpHeaders.createOptimized("Content-Type");
    private static final CharSequence CONNECTION_NAME = HttpHeaders.createOptimized("Connection");
    private static final CharSequence SERVER = HttpHeaders.createOptimized("Vert.x");
    private static final CharSequence TEXT_PLAIN = HttpHeaders.createOptimized("text/plain");
    private static final CharSequence TEXT_HTML = HttpHeaders.createOptimized("text/html");
    private static final CharSequence CLOSE = HttpHeaders.createOptimized("close");
    private static final Buffer HELLO = Buffer.buffer("Hello, World!");

    @Mixin
    PeerOptions options = new PeerOptions();

    private final byte[] page = new byte[TimeBlockPage.LENGTH];
    private Vertx vertx;
    private HttpServer server;
    private LoopProbe probe;
    private CharSequence date;
    private long requests;

    /**
     * Runs the peer.
     *
     * @param args {@code --port=P --cpu=N}; stdin takes {@code begin}, {@code stats}, {@code stop}.
     */
    public static void main(final String[] args)
    {
        PeerMain.run(new VertxHttpServer(), args);
    }

    @Override
    public int start() throws Exception
    {
        vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setPreferNativeTransport(true));
        if (!vertx.isNativeTransportEnabled())
        {
            System.err.println("native transport unavailable (" + vertx.unavailableNativeTransportCause() + ")");
        }
        final Context context = vertx.getOrCreateContext();
        final CompletableFuture<Integer> bound = new CompletableFuture<>();
        context.runOnContext(v ->
        {
            PinnedThreads.pin(options.cpu());
            remakeDate();
            vertx.setPeriodic(1000, id -> remakeDate());
            server = vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(options.port())
                .setAcceptBacklog(1024).setTcpNoDelay(true))
                .requestHandler(this::handle);
            server.listen().onComplete(ar ->
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
        probe = new LoopProbe(task -> context.runOnContext(v -> task.run()), () -> requests, () -> "");
        return bound.get(30, TimeUnit.SECONDS);
    }

    @Override
    public ServerProbe probe()
    {
        return probe;
    }

    @Override
    public void stop()
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

    private void remakeDate()
    {
        date = HttpHeaders.createOptimized(HttpDate.now());
    }

    private void handle(final HttpServerRequest request)
    {
        requests++;
        final HttpServerResponse response = request.response();
        final MultiMap headers = response.headers();
        headers.add(SERVER_NAME, SERVER).add(DATE_NAME, date);
        switch (request.path())
        {
            case "/plaintext":
                headers.add(CONTENT_TYPE_NAME, TEXT_PLAIN);
                response.end(HELLO);
                break;
            case "/gettimeblock":
                TimeBlockPage.write(page, 0);
                headers.add(CONTENT_TYPE_NAME, TEXT_HTML).add(CONNECTION_NAME, CLOSE);
                // Vert.x keeps HTTP/1.1 connections open whatever the header says: close once the page is out.
                response.end(Buffer.buffer(page.length).appendBytes(page))
                    .onComplete(ar -> request.connection().close());
                break;
            default:
                response.setStatusCode(404).end();
        }
    }
}
