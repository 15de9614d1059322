package io.celer.bench.http.tfb;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import io.celer.bench.http.HttpOptions;
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

    @Option(names = "--warmup-seconds", paramLabel = "S", description = "Unmeasured seconds before each measure "
        + "(default: 5; 2 with --quick).")
    private Integer warmupSeconds;

    @Option(names = "--seconds", paramLabel = "S", description = "Measured seconds (default: 10; 3 with --quick).")
    private Integer seconds;

    @Option(names = "--driver", paramLabel = "DRIVER", defaultValue = "celer",
        description = "What loads the servers: celer (checks every response) or wrk (default: ${DEFAULT-VALUE}).")
    private TfbRun.Driver driver;

    @Option(names = "--peers", paramLabel = "PEERS", defaultValue = "celer,vertx,netty",
        description = "Comma-separated servers: celer, celer-spin, vertx, netty (default: ${DEFAULT-VALUE}).")
    private String peers;

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
            final int warm = common.pick(warmupSeconds, 2, 5);
            final int measured = common.pick(seconds, 3, 10);
            if (warm < 0 || measured < 1 || depth < 1)
            {
                throw new IllegalArgumentException("--seconds and --depth must be positive, --warmup-seconds not "
                    + "negative");
            }
            return new TfbRun.Settings(route, depth, TfbPeer.parse(peers),
                HttpOptions.counts(common.pick(connections, quickCounts, fullCounts), "--connections"), warm,
                measured, driver, common.rounds(), common.launcher(), common.outDir());
        });
        return new TfbRun(settings, System.out, System.err).run();
    }
}
