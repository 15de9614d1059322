package io.celer.bench.http.peer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.celer.bench.peer.server.PeerMain;

/**
 * {@link VertxHttpServer} answers the plaintext and time-block routes as the HTTP benchmarks expect, on one loop
 * or two.
 */
@Timeout(60)
class VertxHttpServerTest
{
    @Test
    void answersPlaintextAndTimeBlock() throws Exception
    {
        HttpPeerChecks.checkAll(PeerMain.configure(new VertxHttpServer()));
    }

    @Test
    void servesFromTwoLoops() throws Exception
    {
        final String stats = HttpPeerChecks.statsOfLoops(PeerMain.configure(new VertxHttpServer(), "--loops=2"), 16);
        assertThat(stats).contains(" loops=2 ", " messages=16 ");
        // Connections go to the loops in turn.
        assertThat(HttpPeerChecks.perLoop(stats, "messages")).as(stats).containsExactly(8L, 8L);
    }
}
