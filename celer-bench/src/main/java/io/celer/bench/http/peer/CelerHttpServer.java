package io.celer.bench.http.peer;

import java.util.ArrayList;
import java.util.List;

import io.celer.bench.peer.server.LoopProbe;
import io.celer.bench.peer.server.PeerMain;
import io.celer.bench.peer.server.PeerOptions;
import io.celer.bench.peer.server.PeerServer;
import io.celer.bench.peer.server.ReactorIdle;
import io.celer.examples.http.TimeBlockPage;
import io.celer.http.server.HttpHandler;
import io.celer.http.server.HttpRequest;
import io.celer.http.server.HttpResponse;
import io.celer.http.server.HttpServer;
import io.celer.http.server.HttpServerConfig;
import io.celer.http.server.Router;
import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorConfig;
import io.celer.reactor.ReactorGroup;
import io.celer.tcp.TcpConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Celer's HTTP server on one reactor or on a group of {@code --loops}, each pinned with {@code --cpu} or
 * {@code --cpus}, waiting in the selector when idle or, with {@code --idle=yield}, spinning and yielding:
 * {@code /plaintext} from a constant body, {@code /gettimeblock} written into one reused array per reactor and
 * closing after it, both without garbage.
 *
 * <p>Its buffers are sized for the 10,000-connection runs: small limits on the request head let each connection
 * read through 8 KiB, and a 16 KiB write buffer holds a page and its head.
 *
 * <p>On a group its reactors listen with {@code SO_REUSEPORT} (the default spread); the system property
 * {@value #SPREAD_PROPERTY}{@code =least-loaded}, given to the children with {@code --jvm-opts}, has the first
 * reactor hand each client to the reactor holding the fewest instead, to compare the two spreads.
 */
@Command(name = "celer-http", mixinStandardHelpOptions = true,
    description = "HTTP peer: Celer's HttpServer, its reactors waiting in the selector or spinning when idle.")
public final class CelerHttpServer implements PeerServer
{
    private static final byte[] HELLO = "Hello, World!".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    /** Names the accept spread of a group: {@code reuse-port} (the default) or {@code least-loaded}. */
    static final String SPREAD_PROPERTY = "celer.bench.acceptSpread";

    @Mixin
    PeerOptions options = new PeerOptions();

    @Option(names = "--idle", defaultValue = "select",
        description = "The reactors when idle: select (wait in the selector), spin, yield or backoff.")
    String idle;

    private ReactorGroup group;
    private HttpServer server;

    /**
     * Runs the peer.
     *
     * @param args {@code --port=P --cpu=N} or {@code --loops=L --cpus=LIST}; stdin takes {@code begin},
     *             {@code stats}, {@code stop}.
     */
    public static void main(final String[] args)
    {
        PeerMain.run(new CelerHttpServer(), args);
    }

    private static TcpConfig.AcceptSpread spread()
    {
        final String spread = System.getProperty(SPREAD_PROPERTY, "reuse-port");
        return switch (spread)
        {
            case "reuse-port" -> TcpConfig.AcceptSpread.REUSE_PORT;
            case "least-loaded" -> TcpConfig.AcceptSpread.LEAST_LOADED;
            default -> throw new IllegalArgumentException("-D" + SPREAD_PROPERTY + " is reuse-port or least-loaded: "
                + spread);
        };
    }

    @Override
    public Serving start()
    {
        final int loops = options.loops();
        // The harness pins the whole process to the server's CPUs: a reactor that yields or sleeps when idle leaves
        // the JIT and GC threads its CPU's spare time, where a pure busy-spin would starve them until the scheduler
        // preempts it.
        final ReactorIdle mode = ReactorIdle.of(idle);
        group = new ReactorGroup(loops, i -> mode.applyTo(new ReactorConfig()
            .name(loops == 1 ? "celer-http" : "celer-http-" + i).cpu(options.cpuOf(i)).daemon(true))).start();
        final HttpServerConfig config = new HttpServerConfig()
            .serverName("Celer")
            .maxRequestLineLength(1024)
            .maxHeaderSectionSize(4096)
            .maxHeldBodySize(1024)
            .maxChunkLineLength(256)
            .readBufferSize(8 * 1024)
            .responseHeadSize(512)
            .tcp(new TcpConfig().bindAddress("127.0.0.1").backlog(4096).writeBufferSize(16 * 1024)
                .socketSendBufferSize(256 * 1024).socketReceiveBufferSize(256 * 1024).acceptSpread(spread()));
        final List<Member> members = new ArrayList<>();
        server = new HttpServer(group, options.port(), config, reactor ->
        {
            final Member member = new Member(reactor, members.size());
            members.add(member);
            return member;
        }).open();
        final List<LoopProbe.Loop> probed = new ArrayList<>();
        for (final Member member : members)
        {
            member.reactor.execute(() -> member.opened = server);
            probed.add(new LoopProbe.Loop(member.reactor::execute, () -> member.requests)
                .onBegin(member::mark).count("peak_connections", () -> member.peakConnections));
        }
        return new Serving(server.port(), new LoopProbe(probed));
    }

    @Override
    public void stop()
    {
        server.close();
        group.stop();
    }

    /**
     * A reactor's thread, once started.
     *
     * @param index the reactor's index in the group.
     * @return its thread.
     */
    Thread reactorThread(final int index)
    {
        return group.reactor(index).thread();
    }

    /**
     * One reactor's application: its routes, page and counts, only ever touched by its thread; each request notes
     * the most connections the reactor held.
     */
    private final class Member implements HttpHandler
    {
        private final Reactor reactor;
        private final int index;
        private final byte[] page = new byte[TimeBlockPage.LENGTH];
        private final Router router = Router.builder()
            .get("/plaintext", CelerHttpServer::plaintext)
            .get("/gettimeblock", this::timeBlock)
            .build();
        private long requests;
        private long peakConnections;
        /** Set on this reactor once the server is open. */
        private HttpServer opened;

        Member(final Reactor reactor, final int index)
        {
            this.reactor = reactor;
            this.index = index;
        }

        @Override
        public void handle(final HttpRequest request, final HttpResponse response)
        {
            requests++;
            // The most connections held is looked at per request, not by a timer: a timer would make this reactor
            // wait in the selector with a short timeout, which the peers' event loops do not.
            if (opened != null)
            {
                peakConnections = Math.max(peakConnections, opened.connectionsOn(index));
            }
            router.handle(request, response);
        }

        void mark()
        {
            peakConnections = opened == null ? 0 : opened.connectionsOn(index);
        }

        private void timeBlock(final HttpRequest request, final HttpResponse response)
        {
            // The page is copied into the connection's buffers before body() returns: one array serves all.
            TimeBlockPage.write(page, 0);
            response.closeConnection().header("Content-Type", "text/html").body(page);
        }
    }

    private static void plaintext(final HttpRequest request, final HttpResponse response)
    {
        response.header("Content-Type", "text/plain").body(HELLO);
    }
}
