/**
 * The servers Celer's HTTP benchmarks compare against, each a main run as the harness's child process:
 * Netty's HTTP codec and Vert.x 4 on one event loop (TechEmpower's plaintext style), and the 2009 paper's
 * styles (a thread per connection, an NIO selector with a pool, Grizzly, a virtual thread per connection).
 *
 * <p>Netty and Vert.x also serve TechEmpower's {@code GET /json} for {@code bench json}.
 *
 * <p>Every peer serves {@code GET /plaintext} (keep-alive, pipelining-safe) and {@code GET /gettimeblock}
 * (the paper's page, then {@code Connection: close}); takes {@code --port} (0: ephemeral) and {@code --cpu};
 * prints {@code listening on port N} once bound; on stdin takes {@code begin} (mark, answered {@code begun}), {@code stats} (print
 * {@code stats side=server gc= allocated= messages= jdk= nanos= scope=} since the mark) and {@code stop}; and on
 * the end of stdin or SIGTERM prints the stats line and exits.
 */
package io.celer.bench.http.peer;
