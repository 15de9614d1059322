package io.celer.bench.conns;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The upgrade to a WebSocket on {@code /echo}, then one text message at a time whose echo is read and compared:
 * frames of up to 125 bytes, masked as a client's must be, unmasked as a server's are.
 */
final class WsExchange implements Exchange
{
    /** The largest payload of a frame whose length fits its second byte. */
    static final int MAX_SIZE = 125;
    private static final int TEXT_FIN = 0x81;
    private static final int MASKED = 0x80;
    /** A fixed mask: the payload is the same every time, and a benchmark has no cache to poison. */
    private static final byte[] MASK = {0x37, 0x5A, (byte)0xC1, 0x0E};

    private final byte[] upgrade;
    private final byte[] payload;
    private final byte[] frame;
    private final AnswerBuffer answer = new AnswerBuffer();

    /**
     * The exchange.
     *
     * @param port the server's port, for the Host field.
     * @param size the message's bytes, 1 to 125.
     */
    WsExchange(final int port, final int size)
    {
        if (size < 1 || size > MAX_SIZE)
        {
            throw new IllegalArgumentException("a WebSocket message of 1 to " + MAX_SIZE + " bytes, not " + size);
        }
        this.upgrade = ("GET /echo HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\n"
            + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII);
        this.payload = new byte[size];
        this.frame = new byte[2 + MASK.length + size];
        frame[0] = (byte)TEXT_FIN;
        frame[1] = (byte)(MASKED | size);
        System.arraycopy(MASK, 0, frame, 2, MASK.length);
        for (int i = 0; i < size; i++)
        {
            payload[i] = (byte)('a' + i % 26);
            frame[2 + MASK.length + i] = (byte)(payload[i] ^ MASK[i % MASK.length]);
        }
    }

    @Override
    public void open(final InputStream in, final OutputStream out) throws IOException
    {
        out.write(upgrade);
        answer.clear();
        final int headEnd = answer.readHead(in, 101);
        if (answer.length() != headEnd)
        {
            throw new IOException((answer.length() - headEnd) + " bytes after the 101 before any message");
        }
        roundTrip(in, out);
    }

    @Override
    public void roundTrip(final InputStream in, final OutputStream out) throws IOException
    {
        out.write(frame);
        answer.clear();
        answer.readAtLeast(in, 2);
        if (answer.at(0) != TEXT_FIN || answer.at(1) != payload.length)
        {
            throw new IOException(String.format("expected an unmasked text frame of %d bytes, got 0x%02x 0x%02x",
                payload.length, answer.at(0), answer.at(1)));
        }
        answer.readAtLeast(in, 2 + payload.length);
        if (answer.length() != 2 + payload.length)
        {
            throw new IOException((answer.length() - 2 - payload.length) + " bytes after the echo");
        }
        for (int i = 0; i < payload.length; i++)
        {
            if (answer.at(2 + i) != (payload[i] & 0xFF))
            {
                throw new IOException("the echo differs from the message at byte " + i);
            }
        }
    }
}
