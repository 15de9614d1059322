package io.celer.bench.throughput;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import io.celer.bench.harness.CommonOptions;

/**
 * {@code bench throughput}: how many messages a second one connection carries.
 */
@Command(name = "throughput", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "Throughput over TCP on loopback: the client writes messages until its write buffer is full and "
            + "resumes as it drains; the server counts them and times the first to the last.",
        "Peers: celer, netty-nio."})
public final class ThroughputCommand implements Callable<Integer>
{
    @Option(names = "--peers", paramLabel = "PEERS", description = "Comma-separated peers to run "
        + "(default: ${DEFAULT-VALUE}).", defaultValue = "celer,netty-nio")
    private String peers;

    @Option(names = "--messages", paramLabel = "N", description = "Messages per run "
        + "(default: 5,000,000; 1,000,000 with --quick).")
    private Integer messages;

    @Mixin
    private CommonOptions common;

    @Override
    public Integer call()
    {
        final ThroughputRun.Settings settings = common.settings(() ->
        {
            final int count = common.pick(messages, 1_000_000, 5_000_000);
            final int size = common.size(256);
            common.validate(count, 0, size, 8, 65_536);
            return new ThroughputRun.Settings(ThroughputPeer.parse(peers), count, size,
                common.rounds(), common.launcher(), common.outDir());
        });
        return new ThroughputRun(settings, System.out, System.err).run();
    }
}
