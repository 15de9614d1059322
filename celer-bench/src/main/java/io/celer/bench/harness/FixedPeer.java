package io.celer.bench.harness;

/**
 * A peer outside a benchmark's list, such as the one server every variant of a benchmark talks to.
 *
 * @param id          its name in messages.
 * @param description what it is.
 * @param isCeler     whether it is Celer (run under {@code --epsilon}, pinning its reactor thread).
 * @param transport   its {@code --transport}, or null.
 * @param onNetty42   whether its children run on Netty 4.2 ({@link Netty42}).
 */
public record FixedPeer(String id, String description, boolean isCeler, String transport, boolean onNetty42)
    implements Peer
{
    /**
     * A peer on the harness's own class path.
     *
     * @param id          its name in messages.
     * @param description what it is.
     * @param isCeler     whether it is Celer.
     * @param transport   its {@code --transport}, or null.
     */
    public FixedPeer(final String id, final String description, final boolean isCeler, final String transport)
    {
        this(id, description, isCeler, transport, false);
    }

    /**
     * A Netty peer run on Netty 4.2.
     *
     * @param id          its name in messages.
     * @param description what it is.
     * @param transport   its Netty transport, such as {@code uring}.
     * @return the peer.
     */
    public static FixedPeer netty42(final String id, final String description, final String transport)
    {
        return new FixedPeer(id, description, false, transport, true);
    }
}
