/**
 * Celer's WebSocket server, client and back-pressured outboxes, on the HTTP server's upgrade.
 * {@code io.celer.websocket.internal} is not exported.
 */
module io.celer.websocket
{
    requires transitive io.celer.http;

    exports io.celer.websocket;
    exports io.celer.websocket.client;
    exports io.celer.websocket.deflate;
    exports io.celer.websocket.outbound;
    exports io.celer.websocket.server;
}
