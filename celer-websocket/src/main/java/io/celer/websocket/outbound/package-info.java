/**
 * Back-pressure for a server's clients: what to do when a client reads slower than the server produces.
 *
 * <p>Each client has an {@link io.celer.websocket.outbound.Outbox}: a send goes straight into the connection's write
 * buffer while it has room and nothing waits before it (fast clients never queue), and otherwise into a
 * {@link io.celer.websocket.outbound.MessageQueue} bounded in messages and in bytes, which drains whole messages,
 * never part of a frame, as the socket takes bytes, a budget of bytes per reactor cycle at a time, clients with a
 * backlog taking turns. The queues' storage is fixed-size segments from a pool the fanout shares among its clients,
 * taken while a client lags and given back when its queue empties, optionally capped in total. When the queue is
 * full, the server's {@link io.celer.websocket.outbound.OverflowPolicy} drops the oldest message, refuses the
 * newest, or closes the client with 1008. A client is lagging from the moment its queue reaches a threshold until it is empty again; a
 * {@link io.celer.websocket.outbound.LagListener} hears both transitions, once each, and producers on other threads
 * can read how many clients lag.
 *
 * <p>A {@link io.celer.websocket.outbound.Fanout} holds one reactor's clients by connection id and sends to one or
 * to all; a {@link io.celer.websocket.outbound.Publisher} carries messages to it from producer threads in
 * pre-allocated {@link io.celer.websocket.outbound.Publication}s. All client state lives on the reactor thread,
 * without locks; after warm-up nothing allocates per message on either side, and a client's queue storage never
 * grows past its bounds whatever the client does.
 *
 * <p>The server's connections must refuse a write that does not fit instead of closing
 * ({@code TcpConfig.disconnectOnFullWriteBuffer(false)}).
 */
package io.celer.websocket.outbound;
