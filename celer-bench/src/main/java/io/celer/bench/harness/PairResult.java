package io.celer.bench.harness;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A round of a rate benchmark: a client pushing messages, a server counting them, both reporting their
 * {@link SideStats} with their own times.
 *
 * @param peer   whose round.
 * @param round  which round, from 1.
 * @param stats  what each side reported.
 * @param <P>    the benchmark's peer type.
 */
public record PairResult<P extends Peer>(P peer, int round, Sides<SideStats> stats)
{
    /**
     * One round's rate, as written to JSON.
     *
     * @param round             which round, from 1.
     * @param messagesPerSecond the server's receive rate.
     */
    public record Rate(
        int round,
        @JsonProperty("msgs_per_s") double messagesPerSecond)
    {
    }

    /** @return the client's stats. */
    public SideStats client()
    {
        return stats.client();
    }

    /** @return the server's stats. */
    public SideStats server()
    {
        return stats.server();
    }

    /**
     * The rate the server received messages, first to last.
     *
     * @return messages per second.
     */
    public double received()
    {
        return server().messages() * 1e9 / Math.max(1, server().nanos());
    }

    /**
     * The rate the client handed them to the kernel.
     *
     * @return messages per second.
     */
    public double sent()
    {
        return client().messages() * 1e9 / Math.max(1, client().nanos());
    }

    /**
     * The median round by receive rate.
     *
     * @param all   every round of a peer.
     * @param <P>   the peer type.
     * @return the median, the lower of the middle two for an even count.
     */
    public static <P extends Peer> PairResult<P> median(final List<PairResult<P>> all)
    {
        final List<PairResult<P>> sorted = new ArrayList<>(all);
        sorted.sort(Comparator.comparingDouble(PairResult::received));
        return sorted.get((sorted.size() - 1) / 2);
    }

    /**
     * Every round's rate.
     *
     * @param all every round of a peer.
     * @param <P> the peer type.
     * @return the rates, in round order.
     */
    public static <P extends Peer> List<Rate> rates(final List<PairResult<P>> all)
    {
        final List<Rate> rates = new ArrayList<>();
        for (final PairResult<P> r : all)
        {
            rates.add(new Rate(r.round(), r.received()));
        }
        return rates;
    }
}
