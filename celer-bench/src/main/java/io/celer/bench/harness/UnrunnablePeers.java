package io.celer.bench.harness;

import java.io.PrintStream;
import java.util.List;

/**
 * The peers that cannot run here, for one of two reasons a benchmark checks alike: Celer's native transport
 * ({@link NativeTransport}: a JDK 22+, the module, the kernel's io_uring) or Netty 4.2 ({@link Netty42}: its build,
 * the transport Netty says runs).
 */
public final class UnrunnablePeers
{
    private UnrunnablePeers()
    {
    }

    /**
     * Why a peer cannot run here.
     *
     * @param peer the peer.
     * @return the reason, or null when it can (as far as these two go).
     */
    public static String reason(final Peer peer)
    {
        return NativeTransport.uses(peer) ? NativeTransport.unavailable(peer)
            : Netty42.uses(peer) ? Netty42.unavailable(peer) : null;
    }

    /**
     * Drops from a run the peers that cannot run here, saying why.
     *
     * @param chosen the peers asked for; those that cannot run are removed.
     * @param out    where the notes go.
     * @param <P>    the benchmark's peer type.
     * @throws IllegalArgumentException if no peer is left.
     */
    public static <P extends Peer> void drop(final List<P> chosen, final PrintStream out)
    {
        NativeTransport.dropIfUnavailable(chosen, out);
        Netty42.dropIfUnavailable(chosen, out);
    }
}
