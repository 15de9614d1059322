/**
 * The HTTP demos on {@code celer-http}: {@code http-hello} (plaintext, JSON and echo, TechEmpower's style) and
 * {@code http-timeblock} (the 2009 paper's time-block page, one request per connection).
 */
package io.celer.examples.http;
