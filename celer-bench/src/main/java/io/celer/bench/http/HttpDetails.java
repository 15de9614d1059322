package io.celer.bench.http;

import static io.celer.bench.harness.Cells.format;
import static io.celer.bench.http.HttpPoint.Percentile.cell;

import java.util.List;

import io.celer.bench.harness.Cells;

/**
 * The per-server section of {@code bench http}: latencies, errors, collections and allocation per request.
 */
final class HttpDetails
{
    private HttpDetails()
    {
    }

    /**
     * The section's Markdown.
     *
     * @param entries one per server.
     * @return a sentence and a table.
     */
    static String table(final List<Sweep.Entry<HttpPoint>> entries)
    {
        return "Latency from send to whole response in microseconds (n/a: not measured at that percentile; wrk "
            + "gives 50, 75, 90 and 99); GC: collections while measured, client/server; alloc: bytes allocated per "
            + "request by the client's reactor / by the server (scope: its event loop's thread, or all threads); CPU: "
            + "each process's CPU time over the measure, percent of one core, client / server (the side near 100 % "
            + "set the rate); CPU us/req: each process's CPU time, user and system, per request it handled, client / "
            + "server, and in parentheses the server's user time alone (the kernel's system calls cost every server "
            + "alike); loops: the server's reactors or event loops; per-loop share %: each one's share of the "
            + "requests (req), and of the connections (conn: the most it held at once; Celer alone tells).\n\n"
            + Sweep.points(List.of("server", "connections", "req/s", "p50", "p90", "p99", "p99.9", "max", "errors",
                "GC c/s", "alloc B/req c / s", "scope", "CPU % c / s", "CPU us/req c / s (user)", "loops",
                "per-loop share %"), entries,
                p ->
            {
                final ServerFacts server = p.server();
                return List.of(format("%,d", p.connections()), format("%,.0f", p.requestsPerSecond()),
                    cell(p.at(50)), cell(p.at(90)), cell(p.at(99)), cell(p.at(99.9)), cell(p.at(100)),
                    Long.toString(p.errors()), pair(p.clientGcCount(), server.gcCount()),
                    bytes(p.clientAllocatedPerRequest()) + " / " + bytes(server.allocatedBytesPerRequest()),
                    String.valueOf(server.allocationScope()),
                    percent(p.clientCpu()) + " / " + percent(server.cpuPercent()),
                    Cells.cpuPerMessage(p.clientCpuPerRequest()) + " / "
                        + Cells.cpuPerMessage(server.cpuMicrosPerRequest()) + " ("
                        + Cells.cpuPerMessage(server.userCpuMicrosPerRequest()) + ")",
                    Cells.orNa(server.loops(), "%d"), server.spreadCell());
            }).markdown();
    }

    /**
     * A share of one core.
     *
     * @param value percent, or null.
     * @return such as {@code 97}, or n/a.
     */
    static String percent(final Double value)
    {
        return Cells.orNa(value, "%.0f");
    }

    private static String pair(final Long client, final Long server)
    {
        return Cells.orNa(client, "%d") + "/" + Cells.orNa(server, "%d");
    }

    private static String bytes(final Double value)
    {
        return Cells.orNa(value, "%,.1f");
    }
}
