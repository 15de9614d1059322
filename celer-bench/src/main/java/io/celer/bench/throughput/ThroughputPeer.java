package io.celer.bench.throughput;

import java.util.List;

import io.celer.bench.harness.FixedPeer;
import io.celer.bench.harness.ListedPeer;
import io.celer.bench.harness.Peer;

/**
 * The peers of {@code bench throughput}: a client pushing messages as fast as its write buffer drains and a
 * server counting them.
 */
enum ThroughputPeer implements ListedPeer
{
    /** Celer: busy-spinning reactors. */
    CELER(new FixedPeer("celer", "Celer, busy-spin reactor, FixedSizeFraming", true, "select"),
        "io.celer.bench.peer.celer.CelerSinkServer", "io.celer.bench.peer.celer.CelerBatchClient"),
    /** Netty with its NIO transport. */
    NETTY_NIO(new FixedPeer("netty-nio", "Netty 4.1, NioEventLoopGroup(1), TCP_NODELAY", false, "nio"),
        "io.celer.bench.peer.netty.NettySinkServer", "io.celer.bench.peer.netty.NettyBatchClient");

    private final FixedPeer self;
    private final String server;
    private final String client;

    ThroughputPeer(final FixedPeer self, final String server, final String client)
    {
        this.self = self;
        this.server = server;
        this.client = client;
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
    public FixedPeer self()
    {
        return self;
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
