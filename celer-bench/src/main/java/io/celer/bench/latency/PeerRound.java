package io.celer.bench.latency;

import org.HdrHistogram.Histogram;

import io.celer.bench.harness.LatencySummary;
import io.celer.bench.harness.SideStats;
import io.celer.bench.harness.Sides;

/**
 * One round of one peer: its round trips and what each side reported.
 *
 * @param peer      the peer.
 * @param round     which round, from 1.
 * @param histogram round trips in nanoseconds.
 * @param summary   their percentiles.
 * @param stats     what each side reported.
 */
record PeerRound(LatencyPeer peer, int round, Histogram histogram, LatencySummary summary, Sides<SideStats> stats)
{
}
