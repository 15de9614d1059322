/**
 * What every server peer of the HTTP and WebSocket benchmarks shares: its main as the harness's child
 * ({@link io.celer.bench.peer.server.PeerMain}), the options it takes ({@link io.celer.bench.peer.server.PeerOptions}),
 * its life ({@link io.celer.bench.peer.server.PeerServer}) and the probes that measure it between the harness's
 * mark and its report ({@link io.celer.bench.peer.server.ServerProbe}, {@link io.celer.bench.peer.server.LoopProbe}
 * for a server on one event loop). Library specifics live beside it: Netty's in {@code peer.netty}, Vert.x's in
 * {@code peer.vertx}; the servers themselves in their benchmark's {@code peer} package.
 */
package io.celer.bench.peer.server;
