/**
 * The Netty 4.2 line of the Netty peers: celer-bench's Netty peer code, compiled in this module against Netty 4.2,
 * makes its event loops and channels here.
 */
package io.celer.bench.peer.netty42;
