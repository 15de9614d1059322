/**
 * The parts of the WebSocket opening handshake (RFC 6455 section 4) that need no HTTP parser: the
 * Sec-WebSocket-Key check and generation, the Sec-WebSocket-Accept computation, subprotocol selection and the
 * origin check hook. Each works on bytes or chars in place and allocates nothing after construction.
 */
package io.celer.websocket.handshake;
