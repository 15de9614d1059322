/**
 * The servers Celer's WebSocket benchmark compares against: Netty's and Vert.x's WebSocket servers on one event
 * loop, pushing a timed feed on {@code /feed} ({@code --rate}, {@code --size}, {@code --backpressure=on|off})
 * and echoing on {@code /echo}; run and probed as every server peer is ({@link io.celer.bench.peer.server.PeerMain}),
 * their stats line adding {@code dropped=} and {@code clients=}, with a {@code feed second=...} line each second.
 */
package io.celer.bench.ws.peer;
