/**
 * {@code ./celer bench conns}: what an idle connection costs a server. Each server of the HTTP and WebSocket
 * benchmarks (Celer, Netty, Vert.x) is started as those benchmarks start it and given thousands of connections
 * that each made one exchange and then went quiet, opened by client processes ({@link
 * io.celer.bench.conns.IdleHolder}) from loopback source addresses of their own; the report gives the growth of
 * the server's resident set, heap and direct buffers and of the kernel's TCP memory per connection, the time to
 * open them, and the round trips of a fresh client ({@link io.celer.bench.conns.FreshClient}) before and with
 * them. The servers report their heap and direct buffers after full collections when the harness asks.
 */
package io.celer.bench.conns;
