package io.celer.examples.fanout;

import io.celer.tcp.Connection;

/**
 * A client of the front server: its connection, its requests still to answer, oldest first, and its place in
 * the server's list of clients, whose reads pause together when the request slots run out.
 */
final class FrontClient
{
    final Connection connection;
    int head = RequestSlots.NONE;
    int tail = RequestSlots.NONE;
    boolean closed;
    FrontClient previous;
    FrontClient next;

    FrontClient(final Connection connection)
    {
        this.connection = connection;
    }
}
