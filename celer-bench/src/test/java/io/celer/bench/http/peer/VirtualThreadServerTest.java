package io.celer.bench.http.peer;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.celer.bench.peer.server.PeerMain;

/**
 * {@link VirtualThreadServer} answers as the other peers on JDK 21+, and refuses to start, saying why, before.
 */
@Timeout(60)
class VirtualThreadServerTest
{
    @Test
    void answersPlaintextAndTimeBlock() throws Exception
    {
        Assumptions.assumeTrue(VirtualThreadServer.supported(),
            "virtual threads need JDK 21+; this is JDK " + Runtime.version());
        HttpPeerChecks.checkAll(PeerMain.configure(new VirtualThreadServer()));
    }

    @Test
    void refusesToStartBeforeJdk21()
    {
        Assumptions.assumeFalse(VirtualThreadServer.supported(), "JDK " + Runtime.version() + " has them");
        assertThatThrownBy(() -> PeerMain.configure(new VirtualThreadServer()).start())
            .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("JDK 21");
    }
}
