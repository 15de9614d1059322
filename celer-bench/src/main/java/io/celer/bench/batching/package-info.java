/**
 * {@code bench batching}: application threads publishing into a ring drained by one connection's I/O thread,
 * flushed once per batch or once per message, with Celer and Netty.
 */
package io.celer.bench.batching;
