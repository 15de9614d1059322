/**
 * The WebSocket protocol engine (RFC 6455) for one upgraded connection: a streaming frame decoder and an
 * encoder, a UTF-8 validator, the close handshake and a session that reassembles messages for a
 * {@link io.celer.websocket.WebSocketHandler}, all garbage-free on the reactor thread after warm-up.
 *
 * <p>How the connection was upgraded is none of this package's business: a session is the connection's core
 * {@link io.celer.tcp.Handler} once the handshake is done, reads the bytes that follow it, and writes frames to
 * its {@link io.celer.tcp.Connection}. A session's sends succeed only
 * while the write buffer has room; {@code io.celer.websocket.outbound} adds bounded per-client queues, overflow
 * policies, lag notices and publishing from other threads on top.
 */
package io.celer.websocket;
