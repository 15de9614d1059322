package io.celer.bench.http.tfb;

import static io.celer.bench.harness.Cells.format;
import static io.celer.bench.http.HttpPoint.Percentile.cell;

import java.util.List;

import io.celer.bench.harness.Cells;
import io.celer.bench.http.Sweep;

/**
 * The per-server section of the TechEmpower-style benchmarks: latencies, the server's CPU per request, each
 * side's CPU, collections and allocation.
 */
final class TfbDetails
{
    private TfbDetails()
    {
    }

    /**
     * The section's Markdown.
     *
     * @param entries one per server.
     * @return a sentence and a table.
     */
    static String table(final List<Sweep.Entry<TfbPoint>> entries)
    {
        return "Latency in microseconds, from send to whole response of each request (Celer's driver) or of each "
            + "connection's pipelined batch (wrk; n/a: wrk gives 50, 75, 90 and 99); server CPU µs/req: the "
            + "server process's user + system time over the measure (/proc) per request it answered, and in "
            + "parentheses its user time alone (the kernel's system calls cost every server alike); CPU %: each "
            + "process's CPU time over the measure, percent of one core, driver / server (the side near 100 % set "
            + "the rate); GC: collections while measured, driver/server; alloc: bytes allocated per request by "
            + "the driver's reactor / by the server's event loops or reactors; errors: wrk's socket errors and "
            + "non-2xx (Celer's driver fails the run on any wrong response).\n\n"
            + Sweep.points(List.of("server", "connections", "req/s", "p50", "p99", "p99.9", "max",
                "server CPU µs/req (user)", "CPU % d / s", "GC d/s", "alloc B/req d / s", "errors"), entries, p ->
                List.of(format("%,d", p.connections()), format("%,.0f", p.requestsPerSecond()),
                    cell(p.at(50)), cell(p.at(99)), cell(p.at(99.9)), cell(p.at(100)),
                    Cells.orNa(p.serverCpuPerRequest(), "%.2f") + " ("
                        + Cells.orNa(p.serverUserCpuPerRequest(), "%.2f") + ")",
                    Cells.orNa(p.clientCpu(), "%.0f") + " / " + Cells.orNa(p.serverCpu(), "%.0f"),
                    Cells.orNa(p.clientGcCount(), "%d") + "/" + Cells.orNa(p.serverGcCount(), "%d"),
                    Cells.orNa(p.clientAllocatedPerRequest(), "%,.1f") + " / "
                        + Cells.orNa(p.serverAllocatedPerRequest(), "%,.1f"),
                    Long.toString(p.errors()))).markdown();
    }
}
