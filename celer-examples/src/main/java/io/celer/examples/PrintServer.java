package io.celer.examples;

import java.io.PrintStream;
import java.nio.ByteBuffer;

import io.celer.tcp.Connection;
import io.celer.tcp.Handler;

/**
 * Prints every byte clients send, as it arrives, to a stream: telnet to it and type.
 */
public final class PrintServer implements Handler
{
    private static final int CHUNK = 8 * 1024;

    private final PrintStream out;
    // One scratch array serves every connection: they all run on the one reactor thread.
    private final byte[] chunk = new byte[CHUNK];

    /**
     * A handler that prints to standard output.
     */
    public PrintServer()
    {
        this(System.out);
    }

    /**
     * A handler that prints elsewhere.
     *
     * @param out where the received bytes go, unchanged.
     */
    public PrintServer(final PrintStream out)
    {
        this.out = out;
    }

    /**
     * Writes the received bytes to the stream, raw, and flushes it.
     */
    @Override
    public void message(final Connection connection, final ByteBuffer message)
    {
        while (message.hasRemaining())
        {
            final int length = Math.min(chunk.length, message.remaining());
            message.get(chunk, 0, length);
            out.write(chunk, 0, length);
        }
        out.flush();
    }
}
