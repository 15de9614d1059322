package io.celer.bench.http.peer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.celer.bench.peer.server.PeerMain;

/**
 * {@link ThreadPerConnectionServer} answers the plaintext and time-block routes as the HTTP benchmarks expect.
 */
@Timeout(60)
class ThreadPerConnectionServerTest
{
    @Test
    void answersPlaintextAndTimeBlock() throws Exception
    {
        HttpPeerChecks.checkAll(PeerMain.configure(new ThreadPerConnectionServer()));
    }
}
