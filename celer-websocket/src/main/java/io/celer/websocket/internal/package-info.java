/**
 * Internals of the WebSocket layer, public only so that its other packages can reach them, and free to change in
 * any release: the session that is an upgraded connection's handler, the frame decoder and encoder, masking,
 * UTF-8 validation, the close handshake, the message deflater and inflater, and the opening handshake's keys
 * and subprotocol selection. Applications use {@code io.celer.websocket}, its {@code server}, {@code client},
 * {@code outbound} and {@code deflate} packages instead.
 */
package io.celer.websocket.internal;
