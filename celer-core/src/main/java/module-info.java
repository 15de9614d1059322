/**
 * Celer's core: the reactor, framing, carrier queues, TCP, UDP and TLS. {@code io.celer.reactor.internal} is
 * plumbing for Celer's own modules, exported to them alone.
 */
module io.celer.core
{
    requires transitive org.agrona;
    requires jdk.jfr;

    exports io.celer.counters;
    exports io.celer.framing;
    exports io.celer.queue;
    exports io.celer.reactor;
    exports io.celer.tcp;
    exports io.celer.tls;
    exports io.celer.udp;

    exports io.celer.reactor.internal to io.celer.http, io.celer.websocket;
}
