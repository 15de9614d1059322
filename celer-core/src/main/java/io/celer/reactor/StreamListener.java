package io.celer.reactor;

import java.io.IOException;
import java.nio.channels.Channel;

/**
 * A listening channel whose accepts may come as {@link StreamSocket}s, not {@code SocketChannel}s: what a
 * server's acceptor asks of the native transports' listeners.
 */
public interface StreamListener
{
    /**
     * Accepts a connection, without blocking.
     *
     * @return a {@link StreamSocket}, or a {@code SocketChannel} where its selector takes no stream sockets, or
     *         null when no connection waits.
     * @throws IOException if the accept fails.
     */
    Channel acceptStream() throws IOException;
}
