/**
 * A WebSocket client (RFC 6455) on Celer's reactor: {@link io.celer.websocket.client.WebSocketClient}
 * connects to a {@code ws://} or {@code wss://} URL, sends the opening handshake, checks the server's
 * {@code 101} answer strictly, then runs a client {@link io.celer.websocket.internal.WebSocketSession} on the
 * connection with the bytes that followed the answer.
 */
package io.celer.websocket.client;
