/**
 * The TechEmpower-style server and driver, each a main run as the harness's child process: Celer's HttpServer
 * answering {@code GET /plaintext} and {@code GET /json} with {@code Server}, {@code Date} and
 * {@code Content-Length}, pipelining-safe (Vert.x and Netty are {@code io.celer.bench.http.peer}'s, which answer
 * {@code /json} too); and Celer's load driver, which keeps each connection's pipeline full
 * and checks every response ({@link io.celer.bench.http.tfb.peer.ResponseCheck}). The server obeys the same
 * stdin commands as {@code io.celer.bench.http.peer}'s ({@code begin}, {@code stats}, {@code stop}).
 */
package io.celer.bench.http.tfb.peer;
