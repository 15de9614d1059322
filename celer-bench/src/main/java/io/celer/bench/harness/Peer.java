package io.celer.bench.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One of the implementations a benchmark compares: what the launcher needs to start its processes. A benchmark
 * lists its peers as an enum implementing this.
 */
public interface Peer
{
    /**
     * Its name on the command line and in results.
     *
     * @return such as {@code celer} or {@code netty-nio}.
     */
    String id();

    /**
     * What it is, in a few words.
     *
     * @return the description.
     */
    String description();

    /**
     * Whether it runs on the JVM.
     *
     * @return false for a native program, such as the C peer.
     */
    default boolean isJava()
    {
        return true;
    }

    /**
     * Whether it is one of Celer's own configurations: those run under {@code --epsilon} and pin their reactor
     * thread themselves.
     *
     * @return true for Celer.
     */
    boolean isCeler();

    /**
     * How its children do I/O, passed to them as {@code --transport}.
     *
     * @return such as {@code epoll} for Netty or {@code poll} for Celer; null for none.
     */
    String transport();

    /**
     * Whether its children run on Netty 4.2, from the class path of {@link Netty42} instead of the harness's.
     *
     * @return true for a Netty peer built on Netty 4.2.
     */
    default boolean onNetty42()
    {
        return false;
    }

    /**
     * Parses a comma-separated list of names.
     *
     * @param names such as {@code celer,netty-nio}.
     * @param known every peer of the benchmark.
     * @param what  what they are called in messages, such as {@code peer} or {@code variant}.
     * @param <P>   the benchmark's peer type.
     * @return the peers, in the order given, each once.
     * @throws IllegalArgumentException on an unknown name or none.
     */
    static <P extends Peer> List<P> parse(final String names, final P[] known, final String what)
    {
        final List<P> peers = new ArrayList<>();
        for (final String name : names.split(","))
        {
            final String wanted = name.trim().toLowerCase(Locale.ROOT);
            if (wanted.isEmpty())
            {
                continue;
            }
            P found = null;
            for (final P peer : known)
            {
                found = peer.id().equals(wanted) ? peer : found;
            }
            if (found == null)
            {
                throw new IllegalArgumentException("unknown " + what + " '" + wanted + "'; known: "
                    + ids(List.of(known)));
            }
            if (!peers.contains(found))
            {
                peers.add(found);
            }
        }
        if (peers.isEmpty())
        {
            throw new IllegalArgumentException("no " + what + " named in '" + names + "'");
        }
        return peers;
    }

    /**
     * Names of peers, comma-separated.
     *
     * @param peers the peers.
     * @return the names.
     */
    static String ids(final List<? extends Peer> peers)
    {
        final StringBuilder names = new StringBuilder();
        for (final Peer peer : peers)
        {
            names.append(names.length() == 0 ? "" : ",").append(peer.id());
        }
        return names.toString();
    }
}
