package io.celer.bench.http.peer;

import io.celer.bench.peer.server.LoopProbe;
import io.celer.bench.peer.server.PeerMain;
import io.celer.bench.peer.server.PeerOptions;
import io.celer.bench.peer.server.PeerServer;
import io.celer.examples.http.TimeBlockPage;
import io.celer.http.server.HttpHandler;
import io.celer.http.server.HttpRequest;
import io.celer.http.server.HttpResponse;
import io.celer.http.server.HttpServer;
import io.celer.http.server.HttpServerConfig;
import io.celer.http.server.Router;
import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorConfig;
import io.celer.tcp.TcpConfig;
import org.agrona.concurrent.YieldingIdleStrategy;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * Celer's HTTP server on one reactor, spinning and yielding, pinned with {@code --cpu}: {@code /plaintext} from a constant
 * body, {@code /gettimeblock} written into one reused array and closing after it, both without garbage.
 *
 * <p>Its buffers are sized for the 10,000-connection runs: small limits on the request head let each connection
 * read through 8 KiB, and a 16 KiB write buffer holds a page and its head.
 */
@Command(name = "celer-http", mixinStandardHelpOptions = true,
    description = "HTTP peer: Celer's HttpServer on one spinning reactor that yields when idle.")
public final class CelerHttpServer implements PeerServer, HttpHandler
{
    private static final byte[] HELLO = "Hello, World!".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    @Mixin
    PeerOptions options = new PeerOptions();

    private final byte[] page = new byte[TimeBlockPage.LENGTH];
    private final Router router = Router.builder()
        .get("/plaintext", CelerHttpServer::plaintext)
        .get("/gettimeblock", this::timeBlock)
        .build();
    private long requests;
    private Reactor reactor;
    private HttpServer server;

    /**
     * Runs the peer.
     *
     * @param args {@code --port=P --cpu=N}; stdin takes {@code begin}, {@code stats}, {@code stop}.
     */
    public static void main(final String[] args)
    {
        PeerMain.run(new CelerHttpServer(), args);
    }

    @Override
    public Serving start()
    {
        // The harness pins the whole process to one CPU: a reactor that yields when idle leaves the JIT and GC
        // threads that CPU's spare time, where a pure busy-spin would starve them until the scheduler preempts it.
        reactor = new Reactor(new ReactorConfig().name("celer-http").cpu(options.cpu())
            .idleStrategy(new YieldingIdleStrategy()).daemon(true)).start();
        final HttpServerConfig config = new HttpServerConfig()
            .serverName("Celer")
            .maxRequestLineLength(1024)
            .maxHeaderSectionSize(4096)
            .maxHeldBodySize(1024)
            .maxChunkLineLength(256)
            .readBufferSize(8 * 1024)
            .responseHeadSize(512)
            .tcp(new TcpConfig().bindAddress("127.0.0.1").backlog(4096).writeBufferSize(16 * 1024)
                .socketSendBufferSize(256 * 1024).socketReceiveBufferSize(256 * 1024));
        server = new HttpServer(reactor, options.port(), config, this).open();
        final LoopProbe probe = new LoopProbe(reactor::execute, () -> requests, () -> "");
        return new Serving(server.port(), probe);
    }

    /**
     * Counts the request and routes it; on the reactor thread.
     *
     * @param request  the request.
     * @param response its response.
     */
    @Override
    public void handle(final HttpRequest request, final HttpResponse response)
    {
        requests++;
        router.handle(request, response);
    }

    private static void plaintext(final HttpRequest request, final HttpResponse response)
    {
        response.header("Content-Type", "text/plain").body(HELLO);
    }

    private void timeBlock(final HttpRequest request, final HttpResponse response)
    {
        // The page is copied into the connection's buffers before body() returns: one array serves all.
        TimeBlockPage.write(page, 0);
        response.closeConnection().header("Content-Type", "text/html").body(page);
    }

    @Override
    public void stop()
    {
        reactor.call(server::close);
        reactor.stop();
    }
}
