package io.celer.bench.http.peer;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import io.celer.bench.peer.server.LoopProbe;
import io.celer.bench.peer.server.PeerMain;
import io.celer.bench.peer.server.PeerOptions;
import io.celer.bench.peer.server.PeerServer;
import io.celer.bench.peer.vertx.VertxLoop;
import io.celer.examples.http.TimeBlockPage;

/**
 * Vert.x 4 as TechEmpower's Vert.x entry writes it: one event loop or {@code --loops} (a server verticle instance
 * each), native transport when available, header names and values pre-encoded ({@link HttpHeaders#createOptimized}),
 * the Date value remade by a periodic timer; {@code /plaintext}, and {@code /json} whose {@link JsonObject} is encoded
 * per request by Vert.x's Jackson codec, each with Server, Date and Content-Length. Also {@code /gettimeblock},
 * closing the connection after it.
 */
@Command(name = "vertx-http", mixinStandardHelpOptions = true,
    description = "HTTP peer: a Vert.x 4 HTTP server on one event loop or several.")
public final class VertxHttpServer implements PeerServer
{
    private static final CharSequence SERVER_NAME = HttpHeaders.createOptimized("Server");
    private static final CharSequence DATE_NAME = HttpHeaders.createOptimized("Date");
    private static final CharSequence CONTENT_TYPE_NAME = HttpHeaders.createOptimized("Content-Type");
    private static final CharSequence CONTENT_LENGTH_NAME = HttpHeaders.createOptimized("Content-Length");
    private static final CharSequence CONNECTION_NAME = HttpHeaders.createOptimized("Connection");
    private static final CharSequence SERVER = HttpHeaders.createOptimized("Vert.x");
    private static final CharSequence TEXT_PLAIN = HttpHeaders.createOptimized("text/plain");
    private static final CharSequence APPLICATION_JSON = HttpHeaders.createOptimized("application/json");
    private static final CharSequence TEXT_HTML = HttpHeaders.createOptimized("text/html");
    private static final CharSequence CLOSE = HttpHeaders.createOptimized("close");
    private static final Buffer HELLO = Buffer.buffer("Hello, World!");
    private static final CharSequence HELLO_LENGTH = HttpHeaders.createOptimized(Integer.toString(HELLO.length()));

    @Mixin
    PeerOptions options = new PeerOptions();

    private VertxLoop loop;

    /**
     * Runs the peer.
     *
     * @param args {@code --port=P --cpu=N --loops=L}; stdin takes {@code begin}, {@code stats}, {@code stop}.
     */
    public static void main(final String[] args)
    {
        PeerMain.run(new VertxHttpServer(), args);
    }

    @Override
    public Serving start() throws Exception
    {
        loop = new VertxLoop(options.loops());
        final List<LoopProbe.Loop> loops = new CopyOnWriteArrayList<>();
        final int port = loop.listen(options, 0, executor ->
        {
            final Responder responder = new Responder();
            loop.vertx().setPeriodic(1000, id -> responder.remakeDate());
            loops.add(new LoopProbe.Loop(executor, () -> responder.requests));
            return server -> server.requestHandler(responder::handle);
        });
        return new Serving(port, new LoopProbe(loops));
    }

    @Override
    public void stop()
    {
        loop.close();
    }

    /**
     * Answers the requests of one event loop's connections, on that loop.
     */
    private static final class Responder
    {
        private final byte[] page = new byte[TimeBlockPage.LENGTH];
        private CharSequence date = HttpHeaders.createOptimized(HttpDate.now());
        private long requests;

        void remakeDate()
        {
            date = HttpHeaders.createOptimized(HttpDate.now());
        }

        void handle(final HttpServerRequest request)
        {
            requests++;
            final HttpServerResponse response = request.response();
            final MultiMap headers = response.headers();
            headers.add(SERVER_NAME, SERVER).add(DATE_NAME, date);
            switch (request.path())
            {
                case "/plaintext":
                    headers.add(CONTENT_TYPE_NAME, TEXT_PLAIN).add(CONTENT_LENGTH_NAME, HELLO_LENGTH);
                    response.end(HELLO);
                    break;
                case "/json":
                    final Buffer body = new JsonObject().put("message", "Hello, World!").toBuffer();
                    headers.add(CONTENT_TYPE_NAME, APPLICATION_JSON)
                        .add(CONTENT_LENGTH_NAME, String.valueOf(body.length()));
                    response.end(body);
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
}
