package io.celer.bench;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code bench tcp}: round-trip latency of every peer.
 */
@Command(name = "tcp", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "Round-trip latency over TCP on loopback: the client sends a message whose first 8 bytes are its "
            + "System.nanoTime(), the server echoes it, the client sends the next one when the echo is in.",
        "Peers: celer, netty-nio, netty-epoll, netty-epoll-busy, blocking, c (compiled with gcc on first use)."})
final class TcpCommand implements Callable<Integer>
{
    @Spec
    private CommandSpec spec;

    @Option(names = "--peers", paramLabel = "PEERS", description = "Comma-separated peers to run "
        + "(default: ${DEFAULT-VALUE}).", defaultValue = "celer,netty-nio,netty-epoll,netty-epoll-busy,blocking,c")
    private String peers;

    @Option(names = "--warmup", paramLabel = "N", description = "Warm-up round trips per run, not measured "
        + "(default: 1,000,000; 100,000 with --quick).")
    private Integer warmup;

    @Option(names = "--messages", paramLabel = "N", description = "Measured round trips per run "
        + "(default: 1,000,000; 100,000 with --quick).")
    private Integer messages;

    @Mixin
    private CommonOptions common;

    @Override
    public Integer call()
    {
        final int measured = messages != null ? messages : common.quick ? 100_000 : 1_000_000;
        final int warm = warmup != null ? warmup : common.quick ? 100_000 : 1_000_000;
        final int rounds = common.rounds != null ? common.rounds : common.quick ? 1 : 3;
        final RunSettings settings;
        try
        {
            common.validate(measured, warm, rounds);
            settings = new RunSettings(Peer.parse(peers), warm, measured, common.size, rounds,
                common.jvmOptionList(), common.epsilon, !common.noPin, common.outDir);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ParameterException(spec.commandLine(), ex.getMessage());
        }
        return new TcpLatencyRun(settings, System.out, System.err).run();
    }
}
