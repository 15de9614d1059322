/**
 * The HTTP/1.1 codec the server and the client share: finding a head's end across reads, the strict field
 * parser and the table of offsets it fills, the chunked decoder, the response head parser, and byte-level ASCII
 * helpers. Public only so that Celer's other packages can reach it; exported to {@code io.celer.websocket} alone,
 * whose client reads its handshake's answer with it.
 */
package io.celer.http.internal;
