package io.celer.bench.throughput;

import static io.celer.bench.harness.Cells.format;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

import io.celer.bench.harness.PairResult;
import io.celer.bench.harness.PeerLauncher;
import io.celer.bench.harness.Report;
import io.celer.bench.harness.Result;
import io.celer.bench.harness.SideFacts;
import io.celer.bench.harness.Sides;
import io.celer.bench.harness.Table;

/**
 * A throughput run as written to JSON: its settings (inline after the environment), then one entry per peer
 * (its median round); and the run's table and report.
 *
 * @param pinning    how the two sides were placed.
 * @param jvmOptions options added to every child JVM.
 * @param epsilon    whether Celer's JVMs ran under Epsilon.
 * @param messages   messages per run.
 * @param size       message size in bytes.
 * @param rounds     runs per peer.
 */
record ThroughputReport(
    String pinning,
    List<String> jvmOptions,
    boolean epsilon,
    int messages,
    int size,
    int rounds)
{
    /**
     * One peer's median round.
     *
     * @param peer                 the peer's name.
     * @param description          what it is.
     * @param messages             messages sent and received.
     * @param size                 message size in bytes.
     * @param round                which round this is (from 1).
     * @param messagesPerSecond    the rate the server received them, first to last message.
     * @param mebibytesPerSecond   the same in MiB/s.
     * @param clientMessagesPerSecond the rate the client handed them to the kernel.
     * @param sides                the processes: collections, allocation, CPUs, JDK and JVM options.
     * @param rounds               every round's rate.
     */
    record Entry(
        String peer,
        String description,
        long messages,
        int size,
        int round,
        @JsonProperty("msgs_per_s") double messagesPerSecond,
        @JsonProperty("mib_per_s") double mebibytesPerSecond,
        @JsonProperty("client_msgs_per_s") double clientMessagesPerSecond,
        @JsonUnwrapped SideFacts sides,
        List<PairResult.Rate> rounds)
    {
    }

    /**
     * The run's settings as written to JSON.
     *
     * @param settings the run.
     * @return the settings.
     */
    static ThroughputReport settings(final ThroughputRun.Settings settings)
    {
        final PeerLauncher launcher = settings.launcher();
        return new ThroughputReport(launcher.cpus().note(), launcher.extraJvmOptions(), launcher.epsilon(),
            settings.messages(), settings.size(), settings.rounds());
    }

    /**
     * A peer's entry: its median round, and every round's rate.
     *
     * @param settings the run.
     * @param all      the peer's rounds.
     * @return the entry.
     */
    static Entry entry(final ThroughputRun.Settings settings, final List<PairResult<ThroughputPeer>> all)
    {
        final PairResult<ThroughputPeer> median = PairResult.median(all);
        final ThroughputPeer peer = median.peer();
        return new Entry(peer.id(), peer.description(), median.server().messages(), settings.size(), median.round(),
            median.received(), median.received() * settings.size() / (1024.0 * 1024.0), median.sent(),
            SideFacts.of(settings.launcher(), peer, median.stats()), PairResult.rates(all));
    }

    /**
     * The report of a run.
     *
     * @param settings the run.
     * @param result   what it measured.
     * @return the report.
     */
    @SuppressWarnings("unchecked")
    static Report report(final ThroughputRun.Settings settings, final Result result)
    {
        final Table table = Table.of(List.of("peer", "msgs/s (received)", "MiB/s", "msgs/s (sent)", "GC c/s",
            "alloc B/msg c/s"), (List<Entry>)result.results(), e ->
            {
                final Sides<Double> alloc = e.sides().allocatedBytesPerMsg();
                return List.of(e.peer(), format("%,.0f", e.messagesPerSecond()),
                    format("%,.1f", e.mebibytesPerSecond()), format("%,.0f", e.clientMessagesPerSecond()),
                    e.sides().gcCell(), format("%.2f", alloc.client()) + "/" + format("%.2f", alloc.server()));
            });
        final PeerLauncher launcher = settings.launcher();
        return Report.of("throughput", result, table)
            .title("TCP throughput")
            .intro(format("%,d messages of %d bytes pushed as fast as the write buffer allows, %d round(s) per "
                + "peer (median round shown).", settings.messages(), settings.size(), settings.rounds()))
            .placement("Pinning", launcher.cpus().note(), launcher)
            .legend("Received: the server's rate from its first message to its last. Sent: the client's rate "
                + "handing them to the kernel.");
    }
}
