package io.celer.bench.conns;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import io.celer.bench.harness.CommonOptions;
import io.celer.bench.harness.Peer;
import io.celer.bench.harness.ServerReactors;
import io.celer.bench.harness.UnrunnablePeers;

/**
 * {@code bench conns}: what an idle connection costs each server, and whether the server still answers as usual
 * while holding many.
 */
@Command(name = "conns", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "Idle connections on loopback: each server (one event loop or reactor, as bench http and bench ws start "
            + "it) gets N connections, each after one exchange of its scenario (http: keep-alive after one GET "
            + "/plaintext; ws: the upgrade to /echo and one echoed message), opened one after another by client "
            + "processes from 127.0.0.2 on, and held idle.",
        "Reported per connection: the server's RSS growth, its heap after full collections and its direct "
            + "buffers, the kernel's TCP buffer and slab memory; the time to open them; a fresh client's round "
            + "trips before and with them; and the RSS growth at 100,000 and 1,000,000 connections.",
        "--size is the WebSocket message's bytes here (default: 32, at most 125). Peers: celer, celer-epoll, "
            + "celer-uring, netty, netty42-epoll, netty42-uring (Netty 4.2), vertx. With --server-reactors N each "
            + "server runs N reactors or event loops, and Celer's say each one's share of the connections. Results: bench-results/latest-conns.{json,md,png}."})
public final class ConnsCommand implements Callable<Integer>
{
    private static final int FULL = 19_000;
    private static final int QUICK = 5_000;

    @Option(names = "--connections", paramLabel = "N", description = "Connections each server holds (default: "
        + "19,000, which the open-file limit of 20,000 allows a server; 5,000 with --quick).")
    private Integer connections;

    @Option(names = "--peers", paramLabel = "PEERS", defaultValue = "celer,netty,vertx",
        description = "Comma-separated servers (default: ${DEFAULT-VALUE}).")
    private String peers;

    @Option(names = "--scenarios", paramLabel = "S", defaultValue = "http,ws",
        description = "Comma-separated scenarios: http, ws (default: ${DEFAULT-VALUE}).")
    private String scenarios;

    @Option(names = "--round-trips", paramLabel = "N", defaultValue = "1000",
        description = "Timed round trips of the fresh client (default: ${DEFAULT-VALUE}).")
    private int roundTrips;

    @Option(names = "--warmup-round-trips", paramLabel = "N", defaultValue = "20000",
        description = "Its unmeasured round trips first, each time: enough for a fresh server to have compiled its "
            + "path before the idle figures (default: ${DEFAULT-VALUE}).")
    private int warmupRoundTrips;

    @Option(names = "--connections-per-client", paramLabel = "N", description = "Connections a client process "
        + "holds at most (default: the open-file limit less " + OpenFiles.CLIENT_SPARE + ").")
    private Integer perClient;

    @Option(names = "--connections-per-address", paramLabel = "N",
        defaultValue = "" + LoopbackSockets.PER_ADDRESS_DEFAULT,
        description = "Connections from one loopback source address (default: ${DEFAULT-VALUE}).")
    private int perAddress;

    @Option(names = "--heap-classes", paramLabel = "N", defaultValue = "0",
        description = "List the N classes whose live objects grew the most per connection on each server, from its "
            + "class histograms before and with the connections (default: ${DEFAULT-VALUE}, none).")
    private int heapClasses;

    @Mixin
    private ServerReactors serverReactors;

    @Mixin
    private CommonOptions common;

    @Override
    public Integer call()
    {
        final ConnsSettings settings = common.settings(() ->
        {
            final int count = common.pick(connections, QUICK, FULL);
            final int size = common.size(32);
            common.validate(roundTrips, warmupRoundTrips, size, 1, WsExchange.MAX_SIZE);
            final long limit = OpenFiles.limit();
            final int clientShare = perClient != null ? perClient
                : limit > 0 ? (int)Math.min(Integer.MAX_VALUE, limit - OpenFiles.CLIENT_SPARE) : FULL;
            check(count, clientShare, limit);
            final List<ConnsPeer> chosen = new ArrayList<>(Peer.parse(peers, ConnsPeer.values(), "peer"));
            UnrunnablePeers.drop(chosen, System.out);
            return new ConnsSettings(chosen, Scenario.parse(scenarios),
                count, clientShare, perAddress, roundTrips, warmupRoundTrips, size, common.rounds(), heapClasses,
                common.launcher(serverReactors.count()), common.outDir());
        });
        return new ConnsRun(settings, System.out, System.err).run();
    }

    private void check(final int count, final int clientShare, final long limit)
    {
        if (heapClasses < 0)
        {
            throw new IllegalArgumentException("--heap-classes must not be negative");
        }
        if (count < 1 || clientShare < 1 || perAddress < 1)
        {
            throw new IllegalArgumentException("--connections, --connections-per-client and "
                + "--connections-per-address must be positive");
        }
        if (limit > 0 && count + OpenFiles.SERVER_SPARE > limit)
        {
            throw new IllegalArgumentException(String.format("a server holding %,d connections needs %,d open files "
                + "and the limit is %,d: run fewer --connections or raise it (ulimit -n)", count,
                count + OpenFiles.SERVER_SPARE, limit));
        }
        if (limit > 0 && clientShare + OpenFiles.CLIENT_SPARE > limit)
        {
            throw new IllegalArgumentException(String.format("a client process holding %,d connections needs %,d "
                + "open files and the limit is %,d: lower --connections-per-client", clientShare,
                clientShare + OpenFiles.CLIENT_SPARE, limit));
        }
        final long ports = ephemeralPorts();
        if (ports > 0 && perAddress > ports)
        {
            throw new IllegalArgumentException(String.format("--connections-per-address %,d is more than the %,d "
                + "ephemeral ports of an address", perAddress, ports));
        }
        if ((count + (long)perAddress - 1) / perAddress > LoopbackSockets.MAX_ADDRESSES)
        {
            throw new IllegalArgumentException("more than " + LoopbackSockets.MAX_ADDRESSES + " source addresses "
                + "needed: raise --connections-per-address");
        }
    }

    /** The kernel's ephemeral port range's size, or -1 where it does not say. */
    private static long ephemeralPorts()
    {
        try
        {
            final String[] range = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim()
                .split("\\s+");
            return Long.parseLong(range[1]) - Long.parseLong(range[0]) + 1;
        }
        catch (final IOException | RuntimeException ex)
        {
            return -1;
        }
    }
}
