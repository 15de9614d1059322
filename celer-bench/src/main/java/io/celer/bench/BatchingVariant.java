package io.celer.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The clients compared by the batching benchmark: Celer and Netty, each flushing once per drained batch or
 * once per message.
 */
enum BatchingVariant
{
    /** Celer: {@code write} each message, {@code flush} once per drained batch. */
    CELER_BATCHED("celer-batched", "Celer: write() each message, flush() once per drained batch", Peer.CELER,
        "io.celer.bench.peer.celer.CelerBatchingClient", "batch"),
    /** Celer: {@code send} (write and flush) each message. */
    CELER_PER_MESSAGE("celer-per-message", "Celer: send() each message (write + flush)", Peer.CELER,
        "io.celer.bench.peer.celer.CelerBatchingClient", "message"),
    /** Netty NIO: {@code write} each message, {@code flush} once per drained batch. */
    NETTY_BATCHED("netty-batched", "Netty 4.1 NIO: write() each message, flush() once per drained batch",
        Peer.NETTY_NIO, "io.celer.bench.peer.netty.NettyBatchingClient", "batch"),
    /** Netty NIO: {@code writeAndFlush} each message. */
    NETTY_PER_MESSAGE("netty-per-message", "Netty 4.1 NIO: writeAndFlush() each message", Peer.NETTY_NIO,
        "io.celer.bench.peer.netty.NettyBatchingClient", "message");

    private final String id;
    private final String description;
    private final Peer peer;
    private final String client;
    private final String flush;

    BatchingVariant(final String id, final String description, final Peer peer, final String client,
        final String flush)
    {
        this.id = id;
        this.description = description;
        this.peer = peer;
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
        final List<BatchingVariant> variants = new ArrayList<>();
        for (final String name : names.split(","))
        {
            final String wanted = name.trim().toLowerCase(Locale.ROOT);
            if (wanted.isEmpty())
            {
                continue;
            }
            BatchingVariant found = null;
            for (final BatchingVariant variant : values())
            {
                found = variant.id.equals(wanted) ? variant : found;
            }
            if (found == null)
            {
                throw new IllegalArgumentException("unknown variant '" + wanted + "'; known: "
                    + ids(List.of(values())));
            }
            if (!variants.contains(found))
            {
                variants.add(found);
            }
        }
        if (variants.isEmpty())
        {
            throw new IllegalArgumentException("no variant named in '" + names + "'");
        }
        return variants;
    }

    /**
     * Names of variants, comma-separated.
     *
     * @param variants the variants.
     * @return the names.
     */
    static String ids(final List<BatchingVariant> variants)
    {
        final StringBuilder names = new StringBuilder();
        for (final BatchingVariant variant : variants)
        {
            names.append(names.length() == 0 ? "" : ",").append(variant.id);
        }
        return names.toString();
    }

    /** @return its name on the command line and in results. */
    String id()
    {
        return id;
    }

    /** @return what it does, in a few words. */
    String description()
    {
        return description;
    }

    /** @return the library, for JVM options and the Netty transport. */
    Peer peer()
    {
        return peer;
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
