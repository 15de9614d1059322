package io.celer.bench.latency;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bench udp}: round-trip latency of every peer over UDP datagrams.
 */
@Command(name = "udp", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "Round-trip latency over UDP on loopback: the client sends a datagram whose first 8 bytes are its "
            + "System.nanoTime(), the server sends it back, the client sends the next one when the echo is in. "
            + "A datagram without an echo after " + Protocol.RESEND_AFTER_MILLIS + " ms counts as lost and "
            + "another is sent.",
        "Peers: celer, celer-poll, celer-epoll, celer-epoll-poll (on a JDK 22+ with celer-native; dropped with a "
            + "note where it cannot run), netty-nio, netty-epoll, netty-epoll-busy, c (compiled with gcc on first "
            + "use)."})
public final class UdpCommand extends LatencyCommand
{
    @Option(names = "--peers", paramLabel = "PEERS", description = "Comma-separated peers to run "
        + "(default: ${DEFAULT-VALUE}).", defaultValue = "celer,celer-poll,celer-epoll,celer-epoll-poll,netty-nio,netty-epoll,"
        + "netty-epoll-busy,c")
    private String peers;

    @Option(names = "--drop-every", paramLabel = "N", description = "To test the clients' resending: the "
        + "servers leave every N-th datagram without an echo (default: 0, none). Such runs measure the harness, "
        + "not the peers.", defaultValue = "0")
    private int dropEvery;

    @Override
    Protocol protocol()
    {
        return Protocol.UDP;
    }

    @Override
    String peers()
    {
        return peers;
    }

    @Override
    int dropEvery()
    {
        return dropEvery;
    }
}
