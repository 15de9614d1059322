package io.celer.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The implementations compared, each a server and a client run as separate processes.
 */
enum Peer
{
    /** Celer client and server: busy-spinning reactors, fixed-size framing. */
    CELER("celer", "Celer, busy-spin reactor, FixedSizeFraming", "io.celer.bench.peer.celer.CelerEchoServer",
        "io.celer.bench.peer.celer.CelerPingClient", "io.celer.bench.peer.celer.CelerSinkServer",
        "io.celer.bench.peer.celer.CelerBatchClient", null),
    /** Netty with its NIO transport, as configured by default. */
    NETTY_NIO("netty-nio", "Netty 4.1, NioEventLoopGroup(1), TCP_NODELAY",
        "io.celer.bench.peer.netty.NettyEchoServer", "io.celer.bench.peer.netty.NettyPingClient",
        "io.celer.bench.peer.netty.NettySinkServer", "io.celer.bench.peer.netty.NettyBatchClient", "nio"),
    /** Netty with its native epoll transport. */
    NETTY_EPOLL("netty-epoll", "Netty 4.1, EpollEventLoopGroup(1), TCP_NODELAY",
        "io.celer.bench.peer.netty.NettyEchoServer", "io.celer.bench.peer.netty.NettyPingClient", null, null,
        "epoll"),
    /** Netty's native epoll transport with a busy-waiting event loop. */
    NETTY_EPOLL_BUSY("netty-epoll-busy", "Netty 4.1, EpollEventLoopGroup(1), SelectStrategy.BUSY_WAIT",
        "io.celer.bench.peer.netty.NettyEchoServer", "io.celer.bench.peer.netty.NettyPingClient", null, null,
        "epoll-busy"),
    /** Plain blocking java.net.Socket, one thread per side. */
    BLOCKING("blocking", "java.net.Socket, blocking, one thread per side",
        "io.celer.bench.peer.blocking.BlockingEchoServer", "io.celer.bench.peer.blocking.BlockingPingClient",
        null, null, null),
    /** The C program: the floor of the machine and kernel. */
    C("c", "C, non-blocking sockets, busy polling (gcc -O2)", null, null, null, null, null);

    private final String id;
    private final String description;
    private final String echoServer;
    private final String pingClient;
    private final String sinkServer;
    private final String batchClient;
    private final String nettyTransport;

    Peer(final String id, final String description, final String echoServer, final String pingClient,
        final String sinkServer, final String batchClient, final String nettyTransport)
    {
        this.id = id;
        this.description = description;
        this.echoServer = echoServer;
        this.pingClient = pingClient;
        this.sinkServer = sinkServer;
        this.batchClient = batchClient;
        this.nettyTransport = nettyTransport;
    }

    /**
     * Parses a comma-separated list of peer names.
     *
     * @param names such as {@code celer,netty-nio}.
     * @return the peers, in the order given.
     * @throws IllegalArgumentException on an unknown name.
     */
    static List<Peer> parse(final String names)
    {
        final List<Peer> peers = new ArrayList<>();
        for (final String name : names.split(","))
        {
            final String wanted = name.trim().toLowerCase(Locale.ROOT);
            if (wanted.isEmpty())
            {
                continue;
            }
            final Peer peer = byId(wanted);
            if (!peers.contains(peer))
            {
                peers.add(peer);
            }
        }
        if (peers.isEmpty())
        {
            throw new IllegalArgumentException("no peer named in '" + names + "'");
        }
        return peers;
    }

    private static Peer byId(final String id)
    {
        for (final Peer peer : values())
        {
            if (peer.id.equals(id))
            {
                return peer;
            }
        }
        throw new IllegalArgumentException("unknown peer '" + id + "'; known: " + ids(List.of(values())));
    }

    /**
     * Names of peers, comma-separated.
     *
     * @param peers the peers.
     * @return the names.
     */
    static String ids(final List<Peer> peers)
    {
        final StringBuilder names = new StringBuilder();
        for (final Peer peer : peers)
        {
            names.append(names.length() == 0 ? "" : ",").append(peer.id);
        }
        return names.toString();
    }

    /**
     * Its name on the command line and in results.
     *
     * @return the name.
     */
    String id()
    {
        return id;
    }

    /**
     * What it is, in a few words.
     *
     * @return the description.
     */
    String description()
    {
        return description;
    }

    /**
     * Whether it runs on the JVM.
     *
     * @return false for the C peer.
     */
    boolean isJava()
    {
        return this != C;
    }

    /**
     * Whether it has a throughput server and client.
     *
     * @return true for Celer and Netty NIO.
     */
    boolean hasThroughput()
    {
        return sinkServer != null;
    }

    /** @return Main class of its latency server, or null. */
    String echoServer()
    {
        return echoServer;
    }

    /** @return Main class of its latency client, or null. */
    String pingClient()
    {
        return pingClient;
    }

    /** @return Main class of its throughput server, or null. */
    String sinkServer()
    {
        return sinkServer;
    }

    /** @return Main class of its throughput client, or null. */
    String batchClient()
    {
        return batchClient;
    }

    /** @return Netty transport name, or null for other peers. */
    String nettyTransport()
    {
        return nettyTransport;
    }
}
