/**
 * What Celer's garbage-free HTTP/1.1 server and client share: the methods ({@link io.celer.http.HttpMethod}),
 * the status codes ({@link io.celer.http.HttpStatus}) and {@link io.celer.http.AsciiView}, the reusable text
 * view over received bytes that both hand out instead of Strings.
 *
 * <p>The server is {@link io.celer.http.server}, the client {@link io.celer.http.client}; neither uses the
 * other.
 */
package io.celer.http;
