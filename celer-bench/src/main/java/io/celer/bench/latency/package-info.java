/**
 * {@code bench tcp} and {@code bench udp}: round-trip latency of every peer's echo server and ping client, over
 * TCP (optionally TLS 1.3) or UDP.
 */
package io.celer.bench.latency;
