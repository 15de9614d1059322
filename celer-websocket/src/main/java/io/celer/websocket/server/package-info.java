/**
 * The server side of the WebSocket opening handshake (RFC 6455 section 4.2) on Celer's HTTP/1.1 server: a
 * {@link io.celer.websocket.server.WebSocketUpgrade} is an {@link io.celer.http.server.HttpHandler} that checks the
 * upgrade request, negotiates a subprotocol and permessage-deflate, answers 101 and hands the connection, with
 * the bytes already read after the request, to a server {@link io.celer.websocket.internal.WebSocketSession}.
 */
package io.celer.websocket.server;
