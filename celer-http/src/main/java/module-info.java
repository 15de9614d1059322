/**
 * Celer's HTTP/1.1 server and client, on the core's reactor and TCP connections. {@code io.celer.http.internal}
 * is the codec both sides share, exported to the WebSocket module alone.
 */
module io.celer.http
{
    requires transitive io.celer.core;

    exports io.celer.http;
    exports io.celer.http.client;
    exports io.celer.http.server;

    exports io.celer.http.internal to io.celer.websocket;
}
