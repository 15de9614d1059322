package io.celer.bench.latency;

import java.util.List;

import io.celer.bench.harness.Peer;

/**
 * The peers of {@code bench tcp} and {@code bench udp}: an echo server and a ping client each, run as separate
 * processes.
 */
enum LatencyPeer implements Peer
{
    /** Celer client and server: busy-spinning reactors that select every cycle. */
    CELER("celer", celerTcp("Celer, busy-spin reactor, FixedSizeFraming"),
        celerUdp("Celer, UdpEndpoints on busy-spin reactors, connected client"), "select"),
    /** Celer with its connections busy-polled: read every cycle, the selector consulted every 64 cycles. */
    CELER_POLL("celer-poll", celerTcp("Celer, busy-spin reactor, busy-polled connection (TcpConfig.busyPoll)"),
        celerUdp("Celer, busy-polled UdpEndpoints (UdpConfig.busyPoll), connected client"), "poll"),
    /** Celer on its epoll transport (celer-native, FFM, JDK 22+): the same reactor, selecting every cycle. */
    CELER_EPOLL("celer-epoll", celerTcp("Celer, busy-spin reactor, epoll transport (celer-native, FFM)"),
        celerUdp("Celer, UdpEndpoints on busy-spin reactors, connected client, epoll transport (celer-native, FFM)"),
        "epoll"),
    /** Celer on its epoll transport with its connections busy-polled: {@code read} every cycle, no epoll_wait. */
    CELER_EPOLL_POLL("celer-epoll-poll",
        celerTcp("Celer, busy-spin reactor, busy-polled connection, epoll transport (celer-native, FFM)"),
        celerUdp("Celer, busy-polled UdpEndpoints, connected client, epoll transport (celer-native, FFM)"),
        "epoll-poll"),
    /** Celer on its io_uring transport (celer-native, FFM, JDK 22+): completions, one io_uring_enter per cycle. */
    CELER_URING("celer-uring", celerTcp("Celer, busy-spin reactor, io_uring transport (celer-native, FFM)"), null,
        "uring"),
    /** Celer on its io_uring transport with its connections busy-polled: read every cycle, the ring entered every 64. */
    CELER_URING_POLL("celer-uring-poll",
        celerTcp("Celer, busy-spin reactor, busy-polled connection, io_uring transport (celer-native, FFM)"), null,
        "uring-poll"),
    /** Netty with its NIO transport, as configured by default. */
    NETTY_NIO("netty-nio", nettyTcp("Netty 4.1, NioEventLoopGroup(1), TCP_NODELAY"),
        nettyUdp("Netty 4.1, NioDatagramChannel, NioEventLoopGroup(1)"), "nio"),
    /** Netty with its native epoll transport. */
    NETTY_EPOLL("netty-epoll", nettyTcp("Netty 4.1, EpollEventLoopGroup(1), TCP_NODELAY"),
        nettyUdp("Netty 4.1, EpollDatagramChannel, EpollEventLoopGroup(1)"), "epoll"),
    /** Netty's native epoll transport with a busy-waiting event loop. */
    NETTY_EPOLL_BUSY("netty-epoll-busy", nettyTcp("Netty 4.1, EpollEventLoopGroup(1), SelectStrategy.BUSY_WAIT"),
        nettyUdp("Netty 4.1, EpollDatagramChannel, EpollEventLoopGroup(1), SelectStrategy.BUSY_WAIT"), "epoll-busy"),
    /** Netty 4.2 (celer-bench-netty42) with its native epoll transport, TCP only. */
    NETTY42_EPOLL("netty42-epoll", nettyTcp("Netty 4.2, MultiThreadIoEventLoopGroup(1, EpollIoHandler), TCP_NODELAY"),
        null, "epoll"),
    /** Netty 4.2 with its native io_uring transport, TCP only. */
    NETTY42_URING("netty42-uring",
        nettyTcp("Netty 4.2, MultiThreadIoEventLoopGroup(1, IoUringIoHandler), TCP_NODELAY"), null, "uring"),
    /** Plain blocking java.net.Socket, one thread per side; TCP only. */
    BLOCKING("blocking",
        new Roles("java.net.Socket, blocking, one thread per side",
            "io.celer.bench.peer.blocking.BlockingEchoServer", "io.celer.bench.peer.blocking.BlockingPingClient"),
        null, null),
    /** The C program: the floor of the machine and kernel. */
    C("c",
        new Roles("C, non-blocking sockets, busy polling (gcc -O2)", null, null),
        new Roles("C, non-blocking UDP sockets, busy polling (gcc -O2)", null, null),
        null);

    private static final String CELER_PEERS = "io.celer.bench.peer.celer.";
    private static final String NETTY_PEERS = "io.celer.bench.peer.netty.";

    private static Roles celerTcp(final String description)
    {
        return new Roles(description, CELER_PEERS + "CelerEchoServer", CELER_PEERS + "CelerPingClient");
    }

    private static Roles celerUdp(final String description)
    {
        return new Roles(description, CELER_PEERS + "CelerUdpEchoServer", CELER_PEERS + "CelerUdpPingClient");
    }

    private static Roles nettyTcp(final String description)
    {
        return new Roles(description, NETTY_PEERS + "NettyEchoServer", NETTY_PEERS + "NettyPingClient");
    }

    private static Roles nettyUdp(final String description)
    {
        return new Roles(description, NETTY_PEERS + "NettyUdpEchoServer", NETTY_PEERS + "NettyUdpPingClient");
    }

    /**
     * What a peer runs for one benchmark: a server and a client main class (null for the C program, which
     * takes a mode instead).
     *
     * @param description what it is, in a few words.
     * @param server      main class of the server.
     * @param client      main class of the client.
     */
    record Roles(String description, String server, String client)
    {
    }

    private final String id;
    private final Roles tcp;
    private final Roles udp;
    private final String transport;

    LatencyPeer(final String id, final Roles tcp, final Roles udp, final String transport)
    {
        this.id = id;
        this.tcp = tcp;
        this.udp = udp;
        this.transport = transport;
    }

    /**
     * Parses a comma-separated list of peer names.
     *
     * @param names such as {@code celer,netty-nio}.
     * @return the peers, in the order given.
     * @throws IllegalArgumentException on an unknown name.
     */
    static List<LatencyPeer> parse(final String names)
    {
        return Peer.parse(names, values(), "peer");
    }

    /**
     * Its name on the command line and in results.
     *
     * @return the name.
     */
    @Override
    public String id()
    {
        return id;
    }

    /**
     * What it is over TCP, in a few words.
     *
     * @return the description.
     */
    @Override
    public String description()
    {
        return tcp.description();
    }

    /**
     * Whether it runs on the JVM.
     *
     * @return false for the C peer.
     */
    @Override
    public boolean isJava()
    {
        return this != C;
    }

    /**
     * Whether its TCP echo server and ping client can run over TLS ({@code bench tcp --tls}).
     *
     * @return false for the C peer.
     */
    boolean supportsTls()
    {
        return this != C;
    }

    /**
     * What carries its TLS, in a few words.
     *
     * @return such as {@code SslHandler}; null for the C peer.
     */
    String tlsDescription()
    {
        switch (this)
        {
            case CELER:
            case CELER_POLL:
            case CELER_EPOLL:
            case CELER_EPOLL_POLL:
            case CELER_URING:
            case CELER_URING_POLL:
                return "TlsConfig";
            case BLOCKING:
                return "SSLSocket";
            case C:
                return null;
            default:
                return "SslHandler, SslProvider.JDK";
        }
    }

    /**
     * Whether it has an echo server and a ping client for a protocol.
     *
     * @param protocol TCP or UDP.
     * @return true when it can run that latency benchmark.
     */
    boolean supports(final Protocol protocol)
    {
        return latency(protocol) != null;
    }

    /**
     * Its echo server and ping client for a protocol.
     *
     * @param protocol TCP or UDP.
     * @return the roles, or null when it has none.
     */
    Roles latency(final Protocol protocol)
    {
        return protocol == Protocol.TCP ? tcp : udp;
    }

    /**
     * How its children do I/O, passed to them as {@code --transport}.
     *
     * @return such as {@code epoll} for Netty or {@code poll} for Celer; null for the others.
     */
    @Override
    public String transport()
    {
        return transport;
    }

    /**
     * Whether its children run on Netty 4.2.
     *
     * @return true for {@code netty42-epoll} and {@code netty42-uring}.
     */
    @Override
    public boolean onNetty42()
    {
        return this == NETTY42_EPOLL || this == NETTY42_URING;
    }

    /**
     * Whether it is one of Celer's own configurations.
     *
     * @return true for {@code celer}, {@code celer-poll} and those on a native transport ({@code celer-epoll},
     *     {@code celer-uring-poll}, ...).
     */
    @Override
    public boolean isCeler()
    {
        return this == CELER || this == CELER_POLL || this == CELER_EPOLL || this == CELER_EPOLL_POLL ||
            this == CELER_URING || this == CELER_URING_POLL;
    }
}
