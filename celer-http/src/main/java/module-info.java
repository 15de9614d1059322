/**
 * Celer's HTTP/1.1 server and client, on the core's reactor and TCP connections.
 */
module io.celer.http
{
    requires transitive io.celer.core;

    exports io.celer.http;
}
