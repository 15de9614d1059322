package io.celer.bench.http.peer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.celer.bench.peer.server.PeerMain;

/**
 * {@link NettyHttpServer} answers the plaintext and time-block routes as the HTTP benchmarks expect.
 */
@Timeout(60)
class NettyHttpServerTest
{
    @Test
    void answersPlaintextAndTimeBlock() throws Exception
    {
        HttpPeerChecks.checkAll(PeerMain.configure(new NettyHttpServer()));
    }
}
