/**
 * {@code ./celer bench ws}: the back-pressured WebSocket feed of the seeds. Many clients on one Celer client
 * reactor read a server's feed of numbered, time-stamped messages, a tenth of them slowly; each peer's server (Celer's
 * ws-feed, Netty's, Vert.x's) runs with back-pressure on and off and without slow clients, and the report gives the
 * fast clients' throughput and latency, what the slow ones got and lost, and the server's memory over time.
 */
package io.celer.bench.ws;
