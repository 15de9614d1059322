/**
 * permessage-deflate (RFC 7692): the offer a server or client makes and the parameters the handshake agrees on.
 * Messages are compressed and decompressed in {@code io.celer.websocket.internal}, with one reused
 * {@link java.util.zip.Deflater} and {@link java.util.zip.Inflater} per connection.
 */
package io.celer.websocket.deflate;
