package io.celer.bench.http.tfb;

import java.util.ArrayList;
import java.util.List;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import io.celer.bench.harness.UnrunnablePeers;
import io.celer.bench.http.HttpOptions;
import io.celer.bench.http.LoadTimes;
import io.celer.bench.http.tfb.peer.TfbRoute;

/**
 * What {@code bench plaintext} and {@code bench json} share, as a picocli mixin: the servers, the driver, the
 * times, and {@code bench http}'s options (quick, rounds, pinning, reactors, JVM options, results directory).
 */
final class TfbOptions
{
    @Option(names = "--connections", paramLabel = "LIST", description = "Connection counts, comma-separated "
        + "(default: the benchmark's, fewer with --quick).")
    private String connections;

    @Option(names = "--driver", paramLabel = "DRIVER", defaultValue = "celer",
        description = "What loads the servers: celer (checks every response) or wrk (default: ${DEFAULT-VALUE}).")
    private TfbRun.Driver driver;

    @Option(names = "--peers", paramLabel = "PEERS", defaultValue = "celer,vertx,netty",
        description = "Comma-separated servers: celer, celer-spin, celer-epoll, celer-uring, vertx, netty, "
            + "netty42-epoll, netty42-uring (default: ${DEFAULT-VALUE}).")
    private String peers;

    @Mixin
    private LoadTimes times;

    @Mixin
    private HttpOptions common;

    /**
     * Runs a benchmark with these options.
     *
     * @param route        the route loaded.
     * @param depth        requests in flight per connection.
     * @param quickCounts  the connection counts of a quick run.
     * @param fullCounts   the connection counts of a full run.
     * @return the exit status.
     */
    int run(final TfbRoute route, final int depth, final String quickCounts, final String fullCounts)
    {
        final TfbRun.Settings settings = common.settings(() ->
        {
            if (depth < 1)
            {
                throw new IllegalArgumentException("--depth must be positive: " + depth);
            }
            final List<TfbPeer> chosen = new ArrayList<>(TfbPeer.parse(peers));
            UnrunnablePeers.drop(chosen, System.out);
            return new TfbRun.Settings(route, depth, chosen,
                HttpOptions.counts(common.pick(connections, quickCounts, fullCounts), "--connections"),
                times.warmupSeconds(common), times.seconds(common), driver, common.rounds(), common.launcher(), common.outDir());
        });
        return new TfbRun(settings, System.out, System.err).run();
    }
}
