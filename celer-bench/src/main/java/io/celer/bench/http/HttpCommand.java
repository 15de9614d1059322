package io.celer.bench.http;

import java.util.concurrent.Callable;

import io.celer.bench.peer.server.ReactorIdle;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code bench http}: keep-alive ping-pong on {@code /plaintext} over growing numbers of connections, driven by
 * Celer's HTTP client or by wrk, against Vert.x, Netty and Celer (sleeping and spinning).
 */
@Command(name = "http", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "Keep-alive ping-pong on loopback: X connections each send GET /plaintext when the previous response "
            + "is in, warm-up then measured; requests per second, per-request latency (HdrHistogram), and each "
            + "side's GC, allocation and CPU time per request.",
        "Servers: vertx, netty, celer (waits in the selector when idle, as the others sleep in epoll_wait), "
            + "celer-spin (spins and yields), celer-epoll, celer-uring, netty42-epoll, netty42-uring (Netty 4.2's "
            + "transports, from celer-bench-netty42); any of bench http-paper's may be named. Driver: Celer's "
            + "HttpClient on its own pinned reactor (default), or wrk -t1 --latency (--driver wrk). The server and the driver run "
            + "on separate CPUs, the server on one per reactor with --server-reactors (sharing them with the driver "
            + "when that takes every CPU); a child that needs more open files than the limit raises its own with "
            + "ulimit -n.",
        "Results: bench-results/latest-http.{json,md,png} (latest-http-wrk.* with --driver wrk)."})
public final class HttpCommand implements Callable<Integer>
{
    @Option(names = "--connections", paramLabel = "LIST", description = "Connection counts, comma-separated "
        + "(default: 1,10,100,1000,10000; 1,10,100 with --quick).")
    private String connections;

    @Mixin
    private LoadTimes times;

    @Option(names = "--driver", paramLabel = "DRIVER", defaultValue = "celer",
        description = "What loads the servers: celer or wrk (default: ${DEFAULT-VALUE}).")
    private HttpRun.Driver driver;

    @Option(names = "--driver-idle", paramLabel = "MODE", defaultValue = "select",
        description = "What Celer's driver reactor does when idle: select (waits in epoll_wait, as wrk does), spin, "
            + "yield or backoff (default: ${DEFAULT-VALUE}).")
    private String driverIdle;

    @Option(names = "--peers", paramLabel = "PEERS", defaultValue = "vertx,netty,celer,celer-spin",
        description = "Comma-separated servers (default: ${DEFAULT-VALUE}).")
    private String peers;

    @Mixin
    private HttpOptions options;

    @Override
    public Integer call()
    {
        final HttpRun.Settings settings = options.settings(() ->
        {
            return new HttpRun.Settings(HttpPeer.parse(peers),
                HttpOptions.counts(options.pick(connections, "1,10,100", "1,10,100,1000,10000"), "--connections"),
                times.warmupSeconds(options), times.seconds(options), driver, ReactorIdle.of(driverIdle), options.rounds(), options.launcher(),
                options.outDir());
        });
        return new HttpRun(settings, System.out, System.err).run();
    }
}
