package io.celer.examples.fanout;

import io.celer.tcp.Connection;

/**
 * A client of the front server: its connection and its requests still to answer, oldest first.
 */
final class FrontClient
{
    final Connection connection;
    int head = RequestSlots.NONE;
    int tail = RequestSlots.NONE;
    boolean closed;

    FrontClient(final Connection connection)
    {
        this.connection = connection;
    }
}
