package io.celer.bench.latency;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import io.celer.bench.harness.CommonOptions;
import io.celer.bench.harness.Peer;
import io.celer.bench.harness.UnrunnablePeers;

/**
 * What {@code bench tcp} and {@code bench udp} share: the options of a round-trip latency run.
 */
abstract class LatencyCommand implements Callable<Integer>
{
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
        final RunSettings settings = common.settings(() ->
        {
            final int measured = common.pick(messages, 100_000, 1_000_000);
            final int warm = common.pick(warmup, 100_000, 1_000_000);
            final int size = common.size(256);
            common.validate(measured, warm, size, 8, protocol == Protocol.UDP ? Protocol.MAX_DATAGRAM : 65_536);
            if (dropEvery() < 0)
            {
                throw new IllegalArgumentException("--drop-every must not be negative");
            }
            return new RunSettings(protocol, tls(), peers(protocol), warm, measured, size, common.rounds(),
                dropEvery(), common.launcher(), common.outDir());
        });
        return new LatencyRun(settings, System.out, System.err).run();
    }

    private List<LatencyPeer> peers(final Protocol protocol)
    {
        final List<LatencyPeer> chosen = new ArrayList<>(LatencyPeer.parse(peers()));
        if (tls())
        {
            final List<LatencyPeer> skipped = new ArrayList<>();
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
        UnrunnablePeers.drop(chosen, System.out);
        for (final LatencyPeer peer : chosen)
        {
            if (!peer.supports(protocol))
            {
                throw new IllegalArgumentException("peer " + peer.id() + " has no " + protocol.title()
                    + " latency test");
            }
        }
        return chosen;
    }
}
