package io.celer.bench.http;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code bench http-paper}: the 2009 paper's test, ab without keep-alive on {@code /gettimeblock} at growing
 * concurrency, against the paper's server styles, Netty, Vert.x and Celer.
 */
@Command(name = "http-paper", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "The 2009 paper's test: ab -c N -n REQUESTS without keep-alive on /gettimeblock (a page of 512 blocks of "
            + "System.nanoTime() digits, then Connection: close), for each N, against each server.",
        "Servers: thread-per-connection, nio-pool, grizzly, virtual-threads (on a JDK 21+ from $CELER_JDK21 or "
            + "/usr/lib/jvm, skipped without one), netty, vertx, celer (and celer-spin if named). Each runs alone "
            + "on one CPU, ab on another; "
            + "with --server-reactors N, each server gets N CPUs and netty, vertx and celer serve from N event "
            + "loops or reactors, while the servers of threads ignore it and run as they do on those CPUs.",
        "Results: the paper's table of requests per second, ab's percentiles, and a chart in "
            + "bench-results/latest-http-paper.{json,md,png}."})
public final class PaperCommand implements Callable<Integer>
{
    @Option(names = "--requests", paramLabel = "N", description = "ab's -n per concurrency "
        + "(default: 30,000; 3,000 with --quick).")
    private Integer requests;

    @Option(names = "--concurrency", paramLabel = "LIST", description = "ab's -c values, comma-separated "
        + "(default: 1,2,3,4,6,8,10,12,14,16,32,64; 1,4,16,64 with --quick).")
    private String concurrency;

    @Option(names = "--peers", paramLabel = "PEERS", description = "Comma-separated servers "
        + "(default: ${DEFAULT-VALUE}).",
        defaultValue = "thread-per-connection,nio-pool,grizzly,virtual-threads,netty,vertx,celer")
    private String peers;

    @Mixin
    private HttpOptions options;

    @Override
    public Integer call()
    {
        final PaperRun.Settings settings = options.settings(() ->
        {
            final int n = options.pick(requests, 3_000, 30_000);
            if (n < 1)
            {
                throw new IllegalArgumentException("--requests must be positive: " + n);
            }
            return new PaperRun.Settings(HttpPeer.parse(peers),
                HttpOptions.counts(options.pick(concurrency, "1,4,16,64", "1,2,3,4,6,8,10,12,14,16,32,64"),
                    "--concurrency"), n, options.rounds(), options.launcher(), options.outDir());
        });
        return new PaperRun(settings, System.out, System.err).run();
    }
}
