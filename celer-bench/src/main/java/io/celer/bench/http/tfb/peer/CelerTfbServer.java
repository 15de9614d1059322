package io.celer.bench.http.tfb.peer;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.celer.bench.peer.server.LoopProbe;
import io.celer.bench.peer.server.PeerMain;
import io.celer.bench.peer.server.PeerOptions;
import io.celer.bench.peer.server.PeerServer;
import io.celer.http.HeaderField;
import io.celer.http.server.HttpHandler;
import io.celer.http.server.HttpRequest;
import io.celer.http.server.HttpResponse;
import io.celer.http.server.HttpServer;
import io.celer.http.server.HttpServerConfig;
import io.celer.http.server.Router;
import io.celer.reactor.ReactorConfig;
import io.celer.reactor.ReactorGroup;
import io.celer.tcp.TcpConfig;
import org.agrona.concurrent.YieldingIdleStrategy;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Celer's HTTP server with TechEmpower's two simplest routes: {@code GET /plaintext}, {@code Hello, World!} from a
 * constant, and {@code GET /json}, {@code {"message":"Hello, World!"}} serialized per request from a message object
 * into one reused array per reactor; {@code Server} and {@code Date} come from the server, Content-Length from the
 * body. Reactors wait in the selector when idle, as Netty's and Vert.x's event loops do, or spin and yield with
 * {@code --spin}.
 *
 * <p>Buffers are sized for 16,384 connections of 16 pipelined requests each: 4 KiB of reading holds a batch of
 * requests, 8 KiB of writing a batch of answers.
 */
@Command(name = "celer-tfb", mixinStandardHelpOptions = true,
    description = "TechEmpower peer: Celer's HttpServer answering /plaintext and /json.")
public final class CelerTfbServer implements PeerServer
{
    private static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.US_ASCII);
    // Encoded once, as the peers' entries pre-encode theirs.
    private static final HeaderField TEXT_PLAIN = HeaderField.of("Content-Type", "text/plain");
    private static final HeaderField APPLICATION_JSON = HeaderField.of("Content-Type", "application/json");

    @Mixin
    PeerOptions options = new PeerOptions();

    @Option(names = "--spin", arity = "0..1", description = "Spin and yield when idle instead of waiting in the selector.")
    boolean spin;

    private ReactorGroup group;
    private HttpServer server;

    /**
     * Runs the peer.
     *
     * @param args {@code --port=P --cpu=N [--spin]} or {@code --loops=L --cpus=LIST}; stdin takes {@code begin},
     *             {@code stats}, {@code stop}.
     */
    public static void main(final String[] args)
    {
        PeerMain.run(new CelerTfbServer(), args);
    }

    @Override
    public Serving start()
    {
        final int loops = options.loops();
        group = new ReactorGroup(loops, i ->
        {
            final ReactorConfig config = new ReactorConfig().name(loops == 1 ? "celer-tfb" : "celer-tfb-" + i)
                .cpu(options.cpuOf(i)).daemon(true);
            // Yielding rather than pure spinning leaves the JIT and GC threads pinned beside it their share.
            return spin ? config.idleStrategy(new YieldingIdleStrategy()) : config.waitInSelector(true);
        }).start();
        final HttpServerConfig config = new HttpServerConfig()
            .serverName("Celer")
            .maxRequestLineLength(512)
            .maxHeaderSectionSize(2048)
            .maxHeldBodySize(256)
            .maxChunkLineLength(128)
            .maxPipelinedRequests(16)
            .readBufferSize(4 * 1024)
            .responseHeadSize(256)
            .responseBufferSize(4 * 1024)
            .tcp(new TcpConfig().bindAddress("127.0.0.1").backlog(1024).writeBufferSize(8 * 1024)
                .socketSendBufferSize(64 * 1024).socketReceiveBufferSize(64 * 1024));
        final List<LoopProbe.Loop> probed = new ArrayList<>();
        server = new HttpServer(group, options.port(), config, reactor ->
        {
            final Routes routes = new Routes();
            probed.add(new LoopProbe.Loop(reactor::execute, () -> routes.requests));
            return routes;
        }).open();
        return new Serving(server.port(), new LoopProbe(probed));
    }

    @Override
    public void stop()
    {
        server.close();
        group.stop();
    }

    /** @return the reactors, for a test that watches their threads. */
    ReactorGroup group()
    {
        return group;
    }

    /**
     * One reactor's routes and count, only ever touched by its thread.
     */
    static final class Routes implements HttpHandler
    {
        private final Message message = new Message("Hello, World!");
        private final JsonWriter json = new JsonWriter(256);
        private final Router router = Router.builder()
            .get("/plaintext", Routes::plaintext)
            .get("/json", this::json)
            .build();
        long requests;

        @Override
        public void handle(final HttpRequest request, final HttpResponse response)
        {
            requests++;
            router.handle(request, response);
        }

        private static void plaintext(final HttpRequest request, final HttpResponse response)
        {
            response.header(TEXT_PLAIN).body(HELLO);
        }

        private void json(final HttpRequest request, final HttpResponse response)
        {
            // Serialized per request, as the test asks; the bytes are copied out before body() returns.
            json.writeMessage(message.text());
            response.header(APPLICATION_JSON).body(json.bytes(), 0, json.length());
        }
    }

    /**
     * The JSON test's object.
     *
     * @param text its one field.
     */
    record Message(String text)
    {
    }
}
