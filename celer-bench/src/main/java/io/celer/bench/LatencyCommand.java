package io.celer.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * What {@code bench tcp} and {@code bench udp} share: the options of a round-trip latency run.
 */
abstract class LatencyCommand implements Callable<Integer>
{
    @Spec
    private CommandSpec spec;

    @Option(names = "--warmup", paramLabel = "N", description = "Warm-up round trips per run, not measured "
        + "(default: 1,000,000; 100,000 with --quick).")
    private Integer warmup;

    @Option(names = "--messages", paramLabel = "N", description = "Measured round trips per run "
        + "(default: 1,000,000; 100,000 with --quick).")
    private Integer messages;

    @Mixin
    private CommonOptions common;

    /**
     * What the peers talk over.
     *
     * @return the protocol.
     */
    abstract Protocol protocol();

    /**
     * The {@code --peers} value.
     *
     * @return comma-separated peer names.
     */
    abstract String peers();

    /**
     * To test resending over UDP: the servers leave every n-th datagram without an echo.
     *
     * @return n, or 0 (the default) for none.
     */
    int dropEvery()
    {
        return 0;
    }

    /**
     * Whether the run goes over TLS.
     *
     * @return false unless {@code --tls} was given (TCP only).
     */
    boolean tls()
    {
        return false;
    }

    @Override
    public Integer call()
    {
        final Protocol protocol = protocol();
        final int measured = messages != null ? messages : common.quick ? 100_000 : 1_000_000;
        final int warm = warmup != null ? warmup : common.quick ? 100_000 : 1_000_000;
        final int rounds = common.rounds != null ? common.rounds : common.quick ? 1 : 3;
        final RunSettings settings;
        try
        {
            final int size = common.size(256);
            common.validate(measured, warm, rounds, size, 8,
                protocol == Protocol.UDP ? Protocol.MAX_DATAGRAM : 65_536);
            if (dropEvery() < 0)
            {
                throw new IllegalArgumentException("--drop-every must not be negative");
            }
            final List<Peer> chosen = new ArrayList<>(Peer.parse(peers()));
            if (tls())
            {
                final List<Peer> skipped = new ArrayList<>();
                chosen.removeIf(peer -> !peer.supportsTls() && skipped.add(peer));
                if (!skipped.isEmpty())
                {
                    System.out.println("Skipping " + Peer.ids(skipped) + " under --tls: no TLS in that peer");
                }
                if (chosen.isEmpty())
                {
                    throw new IllegalArgumentException("none of the peers runs over TLS");
                }
            }
            for (final Peer peer : chosen)
            {
                if (!peer.supports(protocol))
                {
                    throw new IllegalArgumentException("peer " + peer.id() + " has no " + protocol.title()
                        + " latency test");
                }
            }
            settings = new RunSettings(chosen, warm, measured, size, rounds, common.jvmOptionList(),
                common.epsilon, !common.noPin, common.outDir);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ParameterException(spec.commandLine(), ex.getMessage());
        }
        return new LatencyRun(protocol, tls(), settings, dropEvery(), System.out, System.err).run();
    }
}
