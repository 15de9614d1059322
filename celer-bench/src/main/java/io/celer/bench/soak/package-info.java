/**
 * {@code ./celer soak}: the WebSocket feed and the HTTP hello demos under churning, partly slow clients for a long
 * time, failing if memory, descriptors or connections grow after warm-up or if a message that must arrive is lost.
 */
package io.celer.bench.soak;
