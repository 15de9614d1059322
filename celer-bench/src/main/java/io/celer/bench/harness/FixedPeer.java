package io.celer.bench.harness;

/**
 * A peer outside a benchmark's list, such as the one server every variant of a benchmark talks to.
 *
 * @param id          its name in messages.
 * @param description what it is.
 * @param isCeler     whether it is Celer (run under {@code --epsilon}, pinning its reactor thread).
 * @param transport   its {@code --transport}, or null.
 */
public record FixedPeer(String id, String description, boolean isCeler, String transport) implements Peer
{
}
