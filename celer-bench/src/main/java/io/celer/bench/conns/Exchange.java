package io.celer.bench.conns;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * A scenario's client side on one blocking connection: what makes it a held connection, and one more round trip
 * on it. An exchange serves one connection at a time and may be reused for the next.
 */
interface Exchange
{
    /**
     * Makes a fresh connection what the scenario holds: sends its first request (the upgrade and a message for a
     * WebSocket) and reads and checks the answer.
     *
     * @param in  the connection's input, with a read timeout.
     * @param out its output.
     * @throws IOException if the connection fails, times out or the answer is not the expected one.
     */
    void open(InputStream in, OutputStream out) throws IOException;

    /**
     * One request and its answer on an opened connection.
     *
     * @param in  the connection's input.
     * @param out its output.
     * @throws IOException if the connection fails, times out or the answer is not the expected one.
     */
    void roundTrip(InputStream in, OutputStream out) throws IOException;
}
