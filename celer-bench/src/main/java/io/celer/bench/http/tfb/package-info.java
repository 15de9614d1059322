/**
 * {@code ./celer bench plaintext} and {@code ./celer bench json}: TechEmpower's two simplest tests on loopback. Each
 * server of {@link io.celer.bench.http.tfb.peer} (Celer, Vert.x, Netty, written as their TechEmpower entries) runs
 * alone on the server's CPU; a driver on the other CPU, Celer's own ({@link
 * io.celer.bench.http.tfb.peer.CelerTfbClient}, which checks every response) or wrk with the project's pipelining
 * script, loads one route at each connection count; the report gives requests per second, latency, and the
 * server's CPU time per request, collections and allocation. The sweep, options and wrk parsing are
 * {@code bench http}'s.
 */
package io.celer.bench.http.tfb;
