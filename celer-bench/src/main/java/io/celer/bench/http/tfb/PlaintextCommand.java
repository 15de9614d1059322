package io.celer.bench.http.tfb;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import io.celer.bench.http.tfb.peer.TfbRoute;

/**
 * {@code bench plaintext}: TechEmpower's plaintext test, {@code GET /plaintext} pipelined 16 deep over 256 to
 * 16,384 connections, against Celer, Vert.x and Netty.
 */
@Command(name = "plaintext", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "TechEmpower's plaintext test on loopback: X keep-alive connections each keep --depth pipelined "
            + "GET /plaintext in flight, answered 'Hello, World!' as text/plain with Server, Date and "
            + "Content-Length; warm-up then measured; requests per second, latency, and the server's CPU per "
            + "request, GC and allocation.",
        "Servers: celer (waiting in the selector when idle), celer-spin, vertx, netty, written as their "
            + "TechEmpower entries. Driver: Celer's own (checks every response; default) or wrk -t1 with a "
            + "pipelining script (--driver wrk). The server runs alone on one CPU, the driver on the other.",
        "Results: bench-results/latest-plaintext.{json,md,png} (latest-plaintext-wrk.* with --driver wrk)."})
public final class PlaintextCommand implements Callable<Integer>
{
    @Option(names = "--depth", paramLabel = "N", defaultValue = "16",
        description = "Pipelined requests in flight per connection (default: ${DEFAULT-VALUE}).")
    private int depth;

    @Mixin
    private TfbOptions options;

    @Override
    public Integer call()
    {
        return options.run(TfbRoute.PLAINTEXT, depth, "256,1024,4096", "256,1024,4096,16384");
    }
}
