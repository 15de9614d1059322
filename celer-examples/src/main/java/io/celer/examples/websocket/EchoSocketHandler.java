package io.celer.examples.websocket;

import java.io.PrintStream;
import java.nio.ByteBuffer;

import io.celer.websocket.Utf8Text;
import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketHandler;

/**
 * The ws-echo demo's WebSocket handler: echoes every text and binary message, whatever its size, holding what
 * the peer does not read yet in the connection's {@link EchoBacklog}; prints the verdict lines a browser
 * self-test sends ({@code VERDICT ...}).
 */
final class EchoSocketHandler implements WebSocketHandler
{
    /** The text a self-test page's verdict starts with. */
    static final String VERDICT = "VERDICT ";

    private final PrintStream out;

    EchoSocketHandler(final PrintStream out)
    {
        this.out = out;
    }

    @Override
    public void opened(final WebSocket socket)
    {
        socket.attach(new EchoBacklog());
    }

    @Override
    public void text(final WebSocket socket, final Utf8Text message)
    {
        final ByteBuffer bytes = message.bytes();
        if (isVerdict(bytes))
        {
            out.println("ws-echo: self-test " + message);
        }
        final EchoBacklog backlog = socket.attachment();
        backlog.echo(socket, bytes, true);
    }

    /** Looks at the bytes, not the decoded text: echoing stays garbage-free. */
    private static boolean isVerdict(final ByteBuffer bytes)
    {
        if (bytes.remaining() <= VERDICT.length() || bytes.remaining() > 200)
        {
            return false;
        }
        for (int i = 0; i < VERDICT.length(); i++)
        {
            if (bytes.get(bytes.position() + i) != VERDICT.charAt(i))
            {
                return false;
            }
        }
        return true;
    }

    @Override
    public void binary(final WebSocket socket, final ByteBuffer message)
    {
        final EchoBacklog backlog = socket.attachment();
        backlog.echo(socket, message, false);
    }

    @Override
    public void writable(final WebSocket socket, final int freeBytes)
    {
        final EchoBacklog backlog = socket.attachment();
        backlog.drain(socket);
    }
}
