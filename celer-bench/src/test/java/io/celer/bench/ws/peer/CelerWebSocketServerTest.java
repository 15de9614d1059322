package io.celer.bench.ws.peer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link CelerWebSocketServer} drops for a client that stops reading with back-pressure on, and queues for it with
 * back-pressure off. It serves the feed on every path, so the echo check of the other peers does not apply.
 */
@Timeout(90)
class CelerWebSocketServerTest
{
    @Test
    void dropsOrQueuesForAStalledClient() throws Exception
    {
        WebSocketPeerChecks.backPressure(args -> WebSocketPeerChecks.configured(new CelerWebSocketServer(), args));
    }
}
