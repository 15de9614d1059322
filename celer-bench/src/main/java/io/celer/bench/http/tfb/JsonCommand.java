package io.celer.bench.http.tfb;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import io.celer.bench.http.tfb.peer.TfbRoute;

/**
 * {@code bench json}: TechEmpower's JSON test, {@code GET /json} without pipelining over 16 to 512 connections,
 * each response's object serialized afresh, against Celer, Vert.x and Netty.
 */
@Command(name = "json", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "TechEmpower's JSON test on loopback: X keep-alive connections each send GET /json when the previous "
            + "response is in, answered with {\"message\":\"Hello, World!\"} serialized per request, with Server, "
            + "Date and Content-Length; warm-up then measured; requests per second, latency, and the server's CPU "
            + "per request, GC and allocation.",
        "Servers: celer (serializing without allocating; waiting in the selector when idle), celer-spin, vertx "
            + "(its JsonObject, Jackson underneath), netty (Jackson's ObjectMapper). Driver: Celer's own (checks "
            + "every response; default) or wrk -t1 (--driver wrk). The server runs alone on one CPU, the driver "
            + "on the other.",
        "Results: bench-results/latest-json.{json,md,png} (latest-json-wrk.* with --driver wrk)."})
public final class JsonCommand implements Callable<Integer>
{
    @Mixin
    private TfbOptions options;

    @Override
    public Integer call()
    {
        return options.run(TfbRoute.JSON, 1, "16,64,256,512", "16,64,256,512");
    }
}
