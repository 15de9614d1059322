package io.celer.bench.http.peer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.celer.bench.peer.server.PeerMain;

/**
 * {@link CelerHttpServer} answers the plaintext and time-block routes as the HTTP benchmarks expect, on one loop
 * or two.
 */
@Timeout(60)
class CelerHttpServerTest
{
    @Test
    void answersPlaintextAndTimeBlock() throws Exception
    {
        HttpPeerChecks.checkAll(PeerMain.configure(new CelerHttpServer()));
    }

    @Test
    void servesFromTwoLoops() throws Exception
    {
        final String stats = HttpPeerChecks.statsOfLoops(PeerMain.configure(new CelerHttpServer(), "--loops=2"), 16);
        assertThat(stats).contains(" loops=2 ", " messages=16 ");
        // The kernel spreads the connections over the two listeners by their addresses: 16 all on one is 1 in 32,768.
        assertThat(HttpPeerChecks.perLoop(stats, "peak_connections")).as(stats).hasSize(2)
            .allSatisfy(peak -> assertThat(peak).isPositive());
        assertThat(HttpPeerChecks.perLoop(stats, "messages")).as(stats).hasSize(2);
    }
}
