/**
 * A garbage-free HTTP/1.1 client on the Celer reactor.
 *
 * <p>{@link io.celer.http.client.HttpClient} keeps a pool of keep-alive, pipelined connections over one or
 * several hosts, plain or TLS. A request is an {@link io.celer.http.client.HttpClientRequest} flyweight filled
 * without allocating; its outcome reaches a {@link io.celer.http.client.ResponseListener} as an
 * {@link io.celer.http.client.HttpClientResponse} over the connection's buffers, or as an
 * {@link io.celer.http.client.HttpClientException} that says why. {@link io.celer.http.client.HttpUrl} cuts an
 * http or https URL into what the client needs.
 */
package io.celer.http.client;
