package io.celer.websocket;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

import io.celer.tcp.CloseReason;
import io.celer.tcp.Connection;
import io.celer.tcp.Handler;
import io.celer.websocket.internal.AcceptKey;
import io.celer.websocket.internal.SecWebSocketKey;
import io.celer.websocket.internal.WebSocketSession;

/**
 * A raw-framed connection handler that does a minimal stand-in for the HTTP upgrade (the client sends a request
 * head, the server answers 101 with the accept value for the request's key; each side waits for the blank line),
 * then hands the connection and every later byte to a fresh {@link WebSocketSession}. The real HTTP upgrade
 * replaces it.
 */
public final class StubUpgrade implements Handler
{
    /** The request head the stand-in client sends. */
    public static final String REQUEST = "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
    public static final String RESPONSE = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
        "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n";

    private final boolean server;
    private final Supplier<WebSocketSession> sessions;

    /**
     * A stand-in upgrade for one side.
     *
     * @param server   whether this is the server's side.
     * @param sessions makes the session of each upgraded connection.
     */
    public StubUpgrade(final boolean server, final Supplier<WebSocketSession> sessions)
    {
        this.server = server;
        this.sessions = sessions;
    }

    /**
     * Per connection: its session.
     */
    private static final class State
    {
        final WebSocketSession session;

        State(final WebSocketSession session)
        {
            this.session = session;
        }
    }

    @Override
    public void opened(final Connection connection)
    {
        connection.attach(new State(sessions.get()));
        if (!server)
        {
            connection.send(REQUEST.getBytes(StandardCharsets.US_ASCII));
        }
    }

    @Override
    public void message(final Connection connection, final ByteBuffer buffer)
    {
        final int end = headEnd(buffer);
        if (end < 0)
        {
            return; // the head waits for more bytes
        }
        if (server)
        {
            connection.send(response(buffer, end));
        }
        buffer.position(end);
        final State state = connection.attachment();
        connection.handler(state.session); // the frames after the head go to it from the core
    }

    /**
     * The 101 response to a request head, its Sec-WebSocket-Accept computed from the request's key.
     */
    private static byte[] response(final ByteBuffer buffer, final int end)
    {
        final byte[] head = new byte[end - buffer.position()];
        buffer.get(buffer.position(), head);
        String key = null;
        for (final String line : new String(head, StandardCharsets.ISO_8859_1).split("\r\n"))
        {
            if (line.regionMatches(true, 0, "Sec-WebSocket-Key:", 0, 18))
            {
                key = line.substring(18).trim();
            }
        }
        if (key == null || !SecWebSocketKey.isValid(key))
        {
            return "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        }
        final ByteBuffer accept = ByteBuffer.allocate(AcceptKey.LENGTH);
        new AcceptKey().write(key, accept);
        return ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
            "Sec-WebSocket-Accept: " + new String(accept.array(), StandardCharsets.US_ASCII) + "\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * A masked frame of a payload under 64 KiB, as a client sends it.
     *
     * @param fin     whether it ends its message.
     * @param opcode  its opcode.
     * @param payload its payload.
     * @return the frame's bytes.
     */
    public static byte[] maskedFrame(final boolean fin, final int opcode, final byte[] payload)
    {
        final ByteArrayOutputStream frame = new ByteArrayOutputStream();
        frame.write((fin ? 0x80 : 0) | opcode);
        if (payload.length < 126)
        {
            frame.write(0x80 | payload.length);
        }
        else
        {
            frame.write(0x80 | 126);
            frame.write(payload.length >>> 8);
            frame.write(payload.length & 0xFF);
        }
        final byte[] mask = {0x37, (byte)0xfa, 0x21, 0x3d};
        frame.writeBytes(mask);
        for (int i = 0; i < payload.length; i++)
        {
            frame.write(payload[i] ^ mask[i & 3]);
        }
        return frame.toByteArray();
    }

    /**
     * Reads a head off a blocking stream, through its blank line, or what came of it before the stream ended.
     *
     * @param in the stream.
     * @return the head, ending in the blank line when whole.
     * @throws IOException if reading fails.
     */
    public static String readHead(final InputStream in) throws IOException
    {
        final StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n"))
        {
            final int b = in.read();
            if (b < 0)
            {
                break;
            }
            head.append((char)b);
        }
        return head.toString();
    }

    /**
     * Reads a response head off a blocking stream, through its blank line.
     *
     * @param in the stream after the request was sent.
     * @throws IOException if the stream ends in the head.
     */
    public static void skipHead(final InputStream in) throws IOException
    {
        if (!readHead(in).endsWith("\r\n\r\n"))
        {
            throw new IOException("closed in the handshake");
        }
    }

    private static int headEnd(final ByteBuffer buffer)
    {
        for (int i = buffer.position(); i + 4 <= buffer.limit(); i++)
        {
            if (buffer.get(i) == '\r' && buffer.get(i + 1) == '\n' && buffer.get(i + 2) == '\r' &&
                buffer.get(i + 3) == '\n')
            {
                return i + 4;
            }
        }
        return -1;
    }

    @Override
    public void closed(final Connection connection, final CloseReason reason)
    {
        final State state = connection.attachment();
        if (state != null)
        {
            state.session.closed(connection, reason); // closed before the handshake was done
        }
    }
}
