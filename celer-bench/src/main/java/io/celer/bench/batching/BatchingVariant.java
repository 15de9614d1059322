package io.celer.bench.batching;

import java.util.List;

import io.celer.bench.harness.FixedPeer;
import io.celer.bench.harness.ListedPeer;
import io.celer.bench.harness.Peer;

/**
 * The clients compared by the batching benchmark: Celer and Netty, each flushing once per drained batch or
 * once per message.
 */
enum BatchingVariant implements ListedPeer
{
    /** Celer: {@code write} each message, {@code flush} once per drained batch. */
    CELER_BATCHED(new FixedPeer("celer-batched", "Celer: write() each message, flush() once per drained batch", true,
        "select"), "io.celer.bench.peer.celer.CelerBatchingClient", "batch"),
    /** Celer: {@code send} (write and flush) each message. */
    CELER_PER_MESSAGE(new FixedPeer("celer-per-message", "Celer: send() each message (write + flush)", true,
        "select"), "io.celer.bench.peer.celer.CelerBatchingClient", "message"),
    /** Netty NIO: {@code write} each message, {@code flush} once per drained batch. */
    NETTY_BATCHED(new FixedPeer("netty-batched", "Netty 4.1 NIO: write() each message, flush() once per drained "
        + "batch", false, "nio"), "io.celer.bench.peer.netty.NettyBatchingClient", "batch"),
    /** Netty NIO: {@code writeAndFlush} each message. */
    NETTY_PER_MESSAGE(new FixedPeer("netty-per-message", "Netty 4.1 NIO: writeAndFlush() each message", false,
        "nio"), "io.celer.bench.peer.netty.NettyBatchingClient", "message");

    private final FixedPeer self;
    private final String client;
    private final String flush;

    BatchingVariant(final FixedPeer self, final String client, final String flush)
    {
        this.self = self;
        this.client = client;
        this.flush = flush;
    }

    /**
     * Parses a comma-separated list of variant names.
     *
     * @param names such as {@code celer-batched,netty-batched}.
     * @return the variants, in the order given.
     * @throws IllegalArgumentException on an unknown name.
     */
    static List<BatchingVariant> parse(final String names)
    {
        return Peer.parse(names, values(), "variant");
    }

    @Override
    public FixedPeer self()
    {
        return self;
    }

    /** @return Main class of its client. */
    String client()
    {
        return client;
    }

    /** @return {@code batch} or {@code message}, the client's {@code --flush}. */
    String flush()
    {
        return flush;
    }

    /**
     * The variant that differs only in how often it flushes.
     *
     * @return per-message for batched and the other way round.
     */
    BatchingVariant counterpart()
    {
        switch (this)
        {
            case CELER_BATCHED:
                return CELER_PER_MESSAGE;
            case CELER_PER_MESSAGE:
                return CELER_BATCHED;
            case NETTY_BATCHED:
                return NETTY_PER_MESSAGE;
            default:
                return NETTY_BATCHED;
        }
    }

    /**
     * Whether it flushes once per batch.
     *
     * @return true for the batched variants.
     */
    boolean batched()
    {
        return "batch".equals(flush);
    }
}
