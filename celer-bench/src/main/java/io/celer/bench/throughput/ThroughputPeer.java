package io.celer.bench.throughput;

import java.util.List;

import io.celer.bench.harness.Peer;

/**
 * The peers of {@code bench throughput}: a client pushing messages as fast as its write buffer drains and a
 * server counting them.
 */
enum ThroughputPeer implements Peer
{
    /** Celer: busy-spinning reactors. */
    CELER("celer", "Celer, busy-spin reactor, FixedSizeFraming", "io.celer.bench.peer.celer.CelerSinkServer",
        "io.celer.bench.peer.celer.CelerBatchClient", "select"),
    /** Netty with its NIO transport. */
    NETTY_NIO("netty-nio", "Netty 4.1, NioEventLoopGroup(1), TCP_NODELAY", "io.celer.bench.peer.netty.NettySinkServer",
        "io.celer.bench.peer.netty.NettyBatchClient", "nio");

    private final String id;
    private final String description;
    private final String server;
    private final String client;
    private final String transport;

    ThroughputPeer(final String id, final String description, final String server, final String client,
        final String transport)
    {
        this.id = id;
        this.description = description;
        this.server = server;
        this.client = client;
        this.transport = transport;
    }

    /**
     * Parses a comma-separated list of peer names.
     *
     * @param names such as {@code celer,netty-nio}.
     * @return the peers, in the order given.
     * @throws IllegalArgumentException on an unknown name.
     */
    static List<ThroughputPeer> parse(final String names)
    {
        return Peer.parse(names, values(), "peer");
    }

    @Override
    public String id()
    {
        return id;
    }

    @Override
    public String description()
    {
        return description;
    }

    @Override
    public boolean isCeler()
    {
        return this == CELER;
    }

    @Override
    public String transport()
    {
        return transport;
    }

    /** @return the main class of its counting server. */
    String server()
    {
        return server;
    }

    /** @return the main class of its pushing client. */
    String client()
    {
        return client;
    }
}
