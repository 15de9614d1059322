package io.celer.bench;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bench tcp}: round-trip latency of every peer over a TCP connection.
 */
@Command(name = "tcp", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "Round-trip latency over TCP on loopback: the client sends a message whose first 8 bytes are its "
            + "System.nanoTime(), the server echoes it, the client sends the next one when the echo is in.",
        "Peers: celer, netty-nio, netty-epoll, netty-epoll-busy, blocking, c (compiled with gcc on first use)."})
final class TcpCommand extends LatencyCommand
{
    @Option(names = "--peers", paramLabel = "PEERS", description = "Comma-separated peers to run "
        + "(default: ${DEFAULT-VALUE}).", defaultValue = "celer,netty-nio,netty-epoll,netty-epoll-busy,blocking,c")
    private String peers;

    @Override
    Protocol protocol()
    {
        return Protocol.TCP;
    }

    @Override
    String peers()
    {
        return peers;
    }
}
