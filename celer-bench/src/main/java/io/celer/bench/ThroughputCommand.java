package io.celer.bench;

import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code bench throughput}: how many messages a second one connection carries.
 */
@Command(name = "throughput", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "Throughput over TCP on loopback: the client writes messages until its write buffer is full and "
            + "resumes as it drains; the server counts them and times the first to the last.",
        "Peers: celer, netty-nio."})
final class ThroughputCommand implements Callable<Integer>
{
    @Spec
    private CommandSpec spec;

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
        final int count = messages != null ? messages : common.quick ? 1_000_000 : 5_000_000;
        final int rounds = common.rounds != null ? common.rounds : common.quick ? 1 : 3;
        final RunSettings settings;
        try
        {
            common.validate(count, 0, rounds, common.size(256), 8, 65_536);
            final List<Peer> chosen = Peer.parse(peers);
            for (final Peer peer : chosen)
            {
                if (!peer.hasThroughput())
                {
                    throw new IllegalArgumentException("peer " + peer.id() + " has no throughput test; "
                        + "use celer or netty-nio");
                }
            }
            settings = new RunSettings(chosen, 0, count, common.size(256), rounds, common.jvmOptionList(),
                common.epsilon, !common.noPin, common.outDir);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ParameterException(spec.commandLine(), ex.getMessage());
        }
        return new TcpThroughputRun(settings, System.out, System.err).run();
    }
}
