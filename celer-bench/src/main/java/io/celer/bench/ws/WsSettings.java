package io.celer.bench.ws;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.celer.bench.harness.PeerLauncher;
import io.celer.bench.peer.server.ReactorIdle;

/**
 * What {@code bench ws} runs.
 *
 * @param peers           the servers.
 * @param scenarios       the scenarios each runs.
 * @param clients         clients in a run.
 * @param rate            messages a second to each client.
 * @param size            bytes a message is padded to.
 * @param seconds         measured seconds.
 * @param warmupSeconds   seconds before the measure.
 * @param slowPercent     share of slow clients where there are some.
 * @param slowPauseMillis a slow client's pause after each read.
 * @param slowReadBytes   what a slow client's read takes at most.
 * @param queue           messages a Celer outbox holds with back-pressure on.
 * @param celerIdle       the {@code celer} server reactor's idle mode: select, spin, yield or backoff.
 * @param rssCapMb        the servers' RSS cap.
 * @param rounds          runs of each peer and scenario.
 * @param launcher        starts the processes.
 * @param outDir          where the result files go.
 */
record WsSettings(List<WsPeer> peers, List<Scenario> scenarios, int clients, int rate, int size, int seconds,
    int warmupSeconds, int slowPercent, int slowPauseMillis, int slowReadBytes, int queue, String celerIdle, int rssCapMb, int rounds,
    PeerLauncher launcher, Path outDir)
{
    /**
     * Checks the settings.
     *
     * @throws IllegalArgumentException on a value out of range.
     */
    WsSettings
    {
        if (clients < 1 || rate < 1 || seconds < 1 || warmupSeconds < 0 || slowPercent < 0 || slowPercent > 100 ||
            slowPauseMillis < 1 || slowReadBytes < 512 || queue < 1 || rssCapMb < 64 || rounds < 1)
        {
            throw new IllegalArgumentException("--clients, --rate, --seconds, --queue, --slow-pause-ms and --rounds "
                + "must be positive, --slow-percent 0 to 100, --slow-read-bytes at least 512, --rss-cap-mb at least 64");
        }
        ReactorIdle.of(celerIdle);
    }

    /**
     * The runs: every scenario of every peer.
     *
     * @return the contenders, peer by peer.
     */
    List<Contender> contenders()
    {
        final List<Contender> all = new ArrayList<>();
        for (final WsPeer peer : peers)
        {
            for (final Scenario scenario : scenarios)
            {
                all.add(new Contender(peer, scenario));
            }
        }
        return all;
    }

    /**
     * One peer in one scenario.
     *
     * @param peer     the server.
     * @param scenario what its clients do.
     */
    record Contender(WsPeer peer, Scenario scenario)
    {
        /** @return such as {@code celer bp-on}. */
        String id()
        {
            return peer.id() + " " + scenario.id();
        }
    }
}
