/**
 * permessage-deflate (RFC 7692): negotiating its parameters in the handshake, and compressing and
 * decompressing messages with one reused {@link java.util.zip.Deflater} and {@link java.util.zip.Inflater} per
 * connection. Knows nothing of frames; the session in {@code io.celer.websocket} drives it.
 */
package io.celer.websocket.deflate;
