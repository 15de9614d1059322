package io.celer.bench;

import org.HdrHistogram.Histogram;

/**
 * One peer's result in one round of a latency run.
 *
 * @param peer      the peer.
 * @param round     the round, from 1.
 * @param histogram the measured round trips, in nanoseconds.
 * @param summary   the histogram's numbers.
 * @param client    what the client reported.
 * @param server    what the server reported.
 */
record PeerRound(Peer peer, int round, Histogram histogram, LatencySummary summary, SideStats client,
    SideStats server)
{
}
