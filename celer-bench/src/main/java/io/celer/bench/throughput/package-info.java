/**
 * {@code bench throughput}: messages per second one TCP connection carries, a client pushing and a server
 * counting.
 */
package io.celer.bench.throughput;
