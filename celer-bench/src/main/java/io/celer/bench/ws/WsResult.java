package io.celer.bench.ws;

import java.util.List;

import io.celer.bench.harness.SideFacts;

/**
 * The JSON of {@code bench ws}: its settings and one entry per peer and scenario.
 */
final class WsResult
{
    private WsResult()
    {
    }

    /**
     * The settings and run-wide outcomes, inline in the file.
     *
     * @param clients           clients in a run.
     * @param ratePerClient     messages a second offered to each client.
     * @param size              bytes a message is padded to.
     * @param seconds           measured seconds asked for.
     * @param warmupSeconds     seconds before the measure.
     * @param slowPercent       share of slow clients where there are some.
     * @param slowPauseMs       a slow client's pause after each read.
     * @param slowReadBytes     what a slow client's read takes at most.
     * @param queue             messages a Celer outbox holds with back-pressure on.
     * @param rssCapMb          the servers' RSS cap.
     * @param rounds            runs of each peer and scenario.
     * @param serverReactors    the servers' reactors (Celer) or event loops (Netty, Vert.x).
     * @param pinning           where the sides ran.
     * @param jvmOptions        the options added to every child JVM.
     * @param p99SlowOverNoSlow per peer, the fast clients' p99 with slow clients over without.
     */
    record Settings(int clients, int ratePerClient, int size, int seconds, int warmupSeconds, int slowPercent,
        int slowPauseMs, int slowReadBytes, int queue, int rssCapMb, int rounds, int serverReactors, String pinning,
        String jvmOptions,
        List<Ratio> p99SlowOverNoSlow)
    {
    }

    /**
     * A peer's p99 with slow clients (back-pressure on) over its p99 without.
     *
     * @param peer       the peer.
     * @param ratio      the quotient.
     * @param withinGoal whether it is at most 1.2.
     */
    record Ratio(String peer, double ratio, boolean withinGoal)
    {
    }

    /**
     * One peer in one scenario, its median round by the fast clients' p99.
     *
     * @param peer          the server.
     * @param scenario      bp-on, bp-off or no-slow.
     * @param description   what the server is.
     * @param round         the median round's number.
     * @param roundsRun     rounds completed.
     * @param fastClients   clients that read at once.
     * @param slowClients   clients that pause after each read.
     * @param measuredS     seconds measured (less than asked when the server stopped at its cap).
     * @param fastMsgsPerS  messages a second delivered to the fast clients together.
     * @param fastReceived  messages the fast clients got while measuring.
     * @param fastLost      gaps in the fast clients' sequence numbers while measuring.
     * @param outOfOrder    sequence numbers that went backwards, any client.
     * @param latencyUs     the fast clients' latency, send stamp to receipt.
     * @param sinceDueUs    their latency from the due stamp (when the rate owed the message) to receipt: also counts
     *                      how late the server generated it.
     * @param slowReceived  messages the slow clients got while measuring.
     * @param slowLost      gaps in the slow clients' sequence numbers while measuring.
     * @param server        the server's memory and collections while measuring.
     * @param cpu           what the server and the client process cost in CPU while measuring.
     * @param serverLoops   the server's reactors or event loops, as it reported them.
     * @param loopMessagesPercent each loop's share of the messages the server sent, percent.
     * @param loopClientsPercent  each loop's share of the clients, by the most it held at once while measuring,
     *                      percent.
     * @param facts         the processes' collections, allocation, CPUs and JVM options.
     * @param clientSamples each second: the clients' message rates.
     * @param serverSamples each second: the server's memory.
     */
    record Entry(String peer, String scenario, String description, int round, int roundsRun, int fastClients,
        int slowClients, double measuredS, double fastMsgsPerS, long fastReceived, long fastLost, long outOfOrder,
        Latency latencyUs, Latency sinceDueUs, long slowReceived, long slowLost, Server server, Cpu cpu,
        Integer serverLoops, List<Double> loopMessagesPercent, List<Double> loopClientsPercent, SideFacts facts,
        List<ClientSample> clientSamples, List<ServerSample> serverSamples)
    {
    }

    /**
     * Latency percentiles in microseconds.
     *
     * @param count messages recorded.
     * @param p50   median.
     * @param p90   90th percentile.
     * @param p99   99th.
     * @param p999  99.9th.
     * @param max   the largest.
     */
    record Latency(long count, double p50, double p90, double p99, double p999, double max)
    {
    }

    /**
     * The CPU time each process used while measuring, user and kernel mode together; null where a side did not
     * report it.
     *
     * @param serverCorePercent  the server's, as a share of one core.
     * @param serverKernelPercent the share of that in the kernel.
     * @param serverUsPerMessage the server's per message it sent.
     * @param clientCorePercent  the load client's, as a share of one core.
     * @param clientKernelPercent the share of that in the kernel.
     * @param clientUsPerMessage the client's per message its fast clients received.
     */
    record Cpu(Double serverCorePercent, Double serverKernelPercent, Double serverUsPerMessage,
        Double clientCorePercent, Double clientKernelPercent, Double clientUsPerMessage)
    {
    }

    /**
     * The server while measuring.
     *
     * @param rssMaxMb      its largest resident set.
     * @param heapMaxMb     its largest heap use.
     * @param gcCount       collections.
     * @param dropped       messages it dropped for clients that could not take them, over its whole run (its own
     *                      count: a slow client sees a drop as a gap only once it has read what was buffered before).
     * @param capped        whether it stopped itself at the RSS cap.
     * @param cappedAfterS  when, in seconds from the start of the measure; null when not capped.
     */
    record Server(double rssMaxMb, double heapMaxMb, long gcCount, long dropped, boolean capped, Double cappedAfterS)
    {
    }

    /**
     * The clients in one second.
     *
     * @param tS             seconds from the start of the measure, at the second's end.
     * @param fastMsgsPerS   the fast clients' messages a second.
     * @param slowMsgsPerS   the slow clients'.
     * @param slowLostPerS   the slow clients' missed sequence numbers a second.
     */
    record ClientSample(double tS, double fastMsgsPerS, double slowMsgsPerS, double slowLostPerS)
    {
    }

    /**
     * The server at one time.
     *
     * @param tS     seconds from the start of the measure.
     * @param rssMb  resident set.
     * @param heapMb heap used.
     * @param gc     collections since the process started.
     * @param cpuMs  its user and system CPU time since it started, in milliseconds; null where not told.
     */
    record ServerSample(double tS, double rssMb, double heapMb, long gc, Long cpuMs)
    {
    }
}
