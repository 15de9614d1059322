/**
 * The asynchronous HTTP server of the CoralReactor "thread concurrency vs network asynchronicity" article:
 * {@code http-quote} answers {@code GET /SYMBOL} by asking slow back-ends over pipelined HTTP connections and
 * answering once one replies, never blocking its reactor; {@code http-quote-backend} is such a back-end, which
 * answers after a delay kept by a reactor timer.
 */
package io.celer.examples.quote;
