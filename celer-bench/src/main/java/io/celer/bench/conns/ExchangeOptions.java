package io.celer.bench.conns;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.channels.SocketChannel;

import picocli.CommandLine.Option;

/**
 * What both client processes are told of the server and the scenario, as a picocli mixin.
 */
final class ExchangeOptions
{
    @Option(names = "--port", required = true, description = "The server's port on 127.0.0.1.")
    int port;

    @Option(names = "--scenario", required = true, description = "http or ws.")
    String scenario;

    @Option(names = "--size", defaultValue = "32", description = "Bytes of the WebSocket message.")
    int size;

    @Option(names = "--timeout-ms", defaultValue = "10000", description = "Bound of each connect and answer.")
    int timeoutMillis;

    /**
     * Opens a connection to the server.
     *
     * @param source the local address, or null for 127.0.0.1.
     * @return the connected channel, blocking, whose socket's streams time out.
     * @throws IOException if it cannot connect in time.
     */
    SocketChannel connect(final InetAddress source) throws IOException
    {
        return LoopbackSockets.connect(source, port, timeoutMillis);
    }

    /** @return a new exchange of the scenario with the server. */
    Exchange exchange()
    {
        return Scenario.byId(scenario).exchange(port, size);
    }
}
