package io.celer.bench.ws.peer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link VertxWebSocketServer} feeds, echoes, and drops or queues for a client that stops reading.
 */
@Timeout(90)
class VertxWebSocketServerTest
{
    @Test
    void feedsAndEchoes() throws Exception
    {
        WebSocketPeerChecks.feedAndEcho(args -> WebSocketPeerChecks.configured(new VertxWebSocketServer(), args));
    }

    @Test
    void dropsOrQueuesForAStalledClient() throws Exception
    {
        WebSocketPeerChecks.backPressure(args -> WebSocketPeerChecks.configured(new VertxWebSocketServer(), args));
    }
}
