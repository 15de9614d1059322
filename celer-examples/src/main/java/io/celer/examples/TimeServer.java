package io.celer.examples;

import java.nio.ByteBuffer;

import io.celer.tcp.Connection;
import io.celer.tcp.Handler;

/**
 * TIME (RFC 868): sends each client the time as 4 bytes, seconds since 1900, and hangs up.
 *
 * <p>Try it with {@code rdate -o PORT -p HOST}, or with {@link TimeClient}.
 */
public final class TimeServer implements Handler
{
    // Reused for every client: they all run on the one reactor thread.
    private final ByteBuffer time = ByteBuffer.allocate(Rfc868.LENGTH);

    /**
     * Sends the time and closes: the whole protocol happens here.
     */
    @Override
    public void opened(final Connection connection)
    {
        time.clear();
        Rfc868.putNow(time);
        time.flip();
        connection.send(time);
        connection.close();
    }
}
