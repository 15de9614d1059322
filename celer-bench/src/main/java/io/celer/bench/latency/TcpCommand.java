package io.celer.bench.latency;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bench tcp}: round-trip latency of every peer over a TCP connection.
 */
@Command(name = "tcp", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "Round-trip latency over TCP on loopback: the client sends a message whose first 8 bytes are its "
            + "System.nanoTime(), the server echoes it, the client sends the next one when the echo is in.",
        "Peers: celer, celer-poll, celer-epoll, celer-epoll-poll, celer-uring, celer-uring-poll (on a JDK 22+ with "
            + "celer-native), netty-nio, netty-epoll, netty-epoll-busy, netty42-epoll, netty42-uring (Netty 4.2, "
            + "from celer-bench-netty42), blocking, c (compiled with gcc on first use); a peer that cannot run here "
            + "is dropped with a note.",
        "With --tls the same over TLS 1.3 on the JDK's provider, with a throw-away CA and server certificate; "
            + "peers without TLS (c) are skipped."})
public final class TcpCommand extends LatencyCommand
{
    @Option(names = "--peers", paramLabel = "PEERS", description = "Comma-separated peers to run "
        + "(default: ${DEFAULT-VALUE}).", defaultValue = "celer,celer-poll,celer-epoll,celer-epoll-poll,celer-uring,"
        + "celer-uring-poll,netty-nio,netty-epoll,netty-epoll-busy,netty42-epoll,netty42-uring,blocking,c")
    private String peers;

    @Option(names = "--tls", description = "Run over TLS 1.3 (the JDK's provider): Celer's TlsConfig, Netty's "
        + "SslHandler, SSLSocket for blocking; peers without TLS are skipped. Results go to latest-tcp-tls.*.")
    private boolean tls;

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

    @Override
    boolean tls()
    {
        return tls;
    }
}
