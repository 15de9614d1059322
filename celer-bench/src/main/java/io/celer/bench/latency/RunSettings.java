package io.celer.bench.latency;

import java.nio.file.Path;
import java.util.List;

import io.celer.bench.harness.PeerLauncher;

/**
 * What a latency run was asked to do.
 *
 * @param protocol  what the peers talk over.
 * @param tls       TCP only: whether over TLS.
 * @param peers     the peers, in the order of the first round.
 * @param warmup    warm-up round trips per run.
 * @param messages  measured round trips per run.
 * @param size      message size in bytes.
 * @param rounds    runs per peer.
 * @param dropEvery UDP only, to test the clients' resending: the servers leave every n-th datagram without an
 *                  echo; 0 for none.
 * @param launcher  starts the children, placed and with the JVM options asked for.
 * @param outDir    where result files go.
 */
record RunSettings(Protocol protocol, boolean tls, List<LatencyPeer> peers, int warmup, int messages, int size,
    int rounds, int dropEvery, PeerLauncher launcher, Path outDir)
{
}
