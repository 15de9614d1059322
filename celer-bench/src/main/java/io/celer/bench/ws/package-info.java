/**
 * {@code ./celer bench ws}: the back-pressured reactive WebSocket feed. Many clients on one Celer client
 * reactor read a server's feed of numbered, time-stamped messages, a tenth of them slowly; each peer's server (Celer's
 * ws-feed, Netty's, Vert.x's) runs with back-pressure on and off and without slow clients, and the report gives the
 * fast clients' throughput and latency, what the slow ones got and lost, and the server's memory over time. Both
 * sides' allocation per message covers the client's measure only: the client says when it begins and ends, the
 * harness marks the server then, and the connections close only after the server's figures are taken.
 */
package io.celer.bench.ws;
