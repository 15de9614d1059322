package io.celer.examples.wsfeed;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A WebSocket client over a plain socket that reads only when told to: it sends the opening handshake, reads the
 * answer's head, then reads frames one by one. Its receive buffer is small, so that a server whose client it is
 * fills its kernel buffers soon while it does not read.
 */
final class RawFeedReader implements AutoCloseable
{
    /** A frame as read: its opcode and payload. */
    record Frame(int opcode, byte[] payload)
    {
        /** @return the payload as ASCII text. */
        String text()
        {
            return new String(payload, StandardCharsets.US_ASCII);
        }

        /** @return the close code of a close frame, or -1. */
        int closeCode()
        {
            return opcode == 8 && payload.length >= 2 ? (payload[0] & 0xFF) << 8 | payload[1] & 0xFF : -1;
        }
    }

    private final Socket socket = new Socket();
    private final DataInputStream in;

    RawFeedReader(final int port) throws IOException
    {
        socket.setReceiveBufferSize(4096);
        socket.setSoTimeout(60_000);
        socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
        final OutputStream out = socket.getOutputStream();
        out.write(("GET /feed HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 4096));
        final StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n"))
        {
            head.append((char)in.readUnsignedByte());
        }
        if (!head.toString().startsWith("HTTP/1.1 101"))
        {
            throw new IOException("not upgraded: " + head);
        }
    }

    /**
     * Reads the next frame.
     *
     * @return the frame.
     * @throws IOException on a read failure or the end of the stream.
     */
    Frame next() throws IOException
    {
        final int first = in.readUnsignedByte();
        final int second = in.readUnsignedByte();
        long length = second & 0x7F;
        if (length == 126)
        {
            length = in.readUnsignedShort();
        }
        else if (length == 127)
        {
            length = in.readLong();
        }
        final byte[] payload = new byte[(int)length];
        in.readFully(payload);
        return new Frame(first & 0x0F, payload);
    }

    @Override
    public void close() throws IOException
    {
        socket.close();
    }
}
