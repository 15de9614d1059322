/**
 * A garbage-free HTTP/1.1 server on the Celer reactor.
 *
 * <p>{@link io.celer.http.server.HttpServer} serves HTTP/1.1 and 1.0 over any TCP transport (plain or TLS). Each
 * request is an {@link io.celer.http.server.HttpRequest}, a flyweight over the connection's read buffer; each
 * {@link io.celer.http.server.HttpResponse} is written toward the connection's write buffer, and responses leave
 * in request order even when a handler answers later. A {@link io.celer.http.server.Router} picks the
 * {@link io.celer.http.server.HttpHandler} by method and path.
 *
 * <p>Parsing follows RFC 9112 strictly where request smuggling lies (conflicting or malformed lengths and
 * codings, bad field syntax, obsolete folding) and is bounded everywhere: every rejection is a status (400,
 * 408, 413, 414, 417, 431, 501, 505), after which the connection closes and nothing after the bad request is
 * processed. Fairness: a connection handles a bounded number of requests per read, and is not read while its
 * peer does not read its responses or its pipeline is full.
 *
 * <p>Each server connection's core {@link io.celer.tcp.Handler} is its HTTP/1.1 parser; a handler that answers
 * {@code 101 Switching Protocols} with {@link io.celer.http.server.HttpResponse#upgrade} hands the connection,
 * and the bytes already read after the upgrade request, to another protocol's handler (WebSocket's).
 */
package io.celer.http.server;
