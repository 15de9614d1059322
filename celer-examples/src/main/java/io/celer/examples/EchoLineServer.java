package io.celer.examples;

import java.nio.ByteBuffer;

import io.celer.framing.LineFraming;
import io.celer.tcp.Connection;
import io.celer.tcp.Handler;
import io.celer.tcp.TcpConfig;

/**
 * Echoes each line a client sends; the line {@code bye} is answered with {@code Goodbye!} and the connection
 * closes.
 *
 * <p>Lines end with {@code \n} or {@code \r\n}; replies end with {@code \n}. The framing strips the line end
 * before the handler sees a line and adds it back on write, so the handler deals in bare lines.
 */
public final class EchoLineServer implements Handler
{
    /** The longest line accepted; a longer one closes the connection. */
    public static final int MAX_LINE_LENGTH = 8 * 1024;

    private static final byte[] BYE = {'b', 'y', 'e'};
    private static final byte[] GOODBYE = {'G', 'o', 'o', 'd', 'b', 'y', 'e', '!'};

    /**
     * The settings this handler needs on top of a base: lines of at most {@link #MAX_LINE_LENGTH} bytes.
     *
     * @param base where to listen, the transport (TLS) and socket options.
     * @return a copy of the base with the line framing.
     */
    public static TcpConfig config(final TcpConfig base)
    {
        return base.copy().framing(() -> new LineFraming(MAX_LINE_LENGTH));
    }

    /**
     * Echoes the line, or says goodbye and closes on {@code bye}.
     */
    @Override
    public void message(final Connection connection, final ByteBuffer line)
    {
        if (equals(line, BYE))
        {
            connection.write(GOODBYE);
            // close() flushes first, so the lines echoed earlier in this batch and the goodbye all go out.
            connection.close();
        }
        else
        {
            // Buffered only: the whole batch leaves in one flush, in batchProcessed.
            connection.write(line);
        }
    }

    /**
     * Flushes the echoes of one read in a single socket write.
     */
    @Override
    public void batchProcessed(final Connection connection)
    {
        connection.flush();
    }

    private static boolean equals(final ByteBuffer buffer, final byte[] text)
    {
        // Compares in place: building a String for each line would make garbage.
        final int start = buffer.position();
        if (buffer.limit() - start != text.length)
        {
            return false;
        }
        for (int i = 0; i < text.length; i++)
        {
            if (buffer.get(start + i) != text[i])
            {
                return false;
            }
        }
        return true;
    }
}
