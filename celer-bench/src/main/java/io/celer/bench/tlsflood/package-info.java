/**
 * {@code bench tls-flood}: a flood of TLS handshakes from another process, pinned to another CPU, against a
 * reactor that also serves a plain keep-alive client, whose latency is measured with the handshake bound on and
 * off.
 */
package io.celer.bench.tlsflood;
