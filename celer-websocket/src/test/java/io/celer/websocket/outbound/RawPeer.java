package io.celer.websocket.outbound;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.BooleanSupplier;

import io.celer.websocket.StubUpgrade;

/**
 * A hostile client on a plain blocking socket: it upgrades, then reads only when the test says so (a client that
 * never reads, with a small receive buffer so that the server's buffers fill soon).
 */
final class RawPeer implements AutoCloseable
{
    private final Socket socket;
    private final DataInputStream in;

    /**
     * One frame as read: its opcode and payload.
     */
    record Frame(int opcode, byte[] payload)
    {
        long sequence()
        {
            return ByteBuffer.wrap(payload).getLong(0);
        }

        int closeCode()
        {
            return (payload[0] & 0xFF) << 8 | payload[1] & 0xFF;
        }

        String closeReason()
        {
            return new String(payload, 2, payload.length - 2, StandardCharsets.UTF_8);
        }
    }

    RawPeer(final int port, final int receiveBufferSize) throws IOException
    {
        this(port, receiveBufferSize, 0);
    }

    /**
     * A peer that, once upgraded, pauses before every read from its socket.
     */
    RawPeer(final int port, final int receiveBufferSize, final long pauseMillis) throws IOException
    {
        socket = new Socket();
        socket.setReceiveBufferSize(receiveBufferSize);
        socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
        socket.setSoTimeout(30_000);
        socket.getOutputStream().write(StubUpgrade.REQUEST.getBytes(StandardCharsets.US_ASCII));
        final InputStream socketIn = socket.getInputStream();
        StubUpgrade.skipHead(socketIn);
        in = new DataInputStream(new BufferedInputStream(pauseMillis == 0 ? socketIn : new Pausing(socketIn,
            pauseMillis), 16 * 1024));
    }

    Frame readFrame() throws IOException
    {
        final int first = in.readUnsignedByte();
        final int second = in.readUnsignedByte();
        if ((second & 0x80) != 0)
        {
            throw new IOException("a server frame arrived masked");
        }
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

    /**
     * Answers a close frame: masked (with a zero key, so the payload reads as it is) and carrying the code.
     */
    void sendClose(final int code) throws IOException
    {
        socket.getOutputStream().write(new byte[] {(byte)0x88, (byte)0x82, 0, 0, 0, 0, (byte)(code >>> 8),
            (byte)code});
    }

    boolean atEndOfStream() throws IOException
    {
        return in.read() == -1;
    }

    /**
     * Reads and discards whatever arrives until the condition holds; frames may be cut anywhere.
     */
    void discardUntil(final BooleanSupplier condition) throws IOException
    {
        final byte[] chunk = new byte[8192];
        socket.setSoTimeout(20);
        try
        {
            final long deadline = System.nanoTime() + 30_000_000_000L;
            while (!condition.getAsBoolean())
            {
                if (System.nanoTime() - deadline > 0)
                {
                    throw new AssertionError("the condition did not hold within 30 s of reading");
                }
                try
                {
                    if (in.read(chunk) < 0)
                    {
                        throw new IOException("the server closed");
                    }
                }
                catch (final SocketTimeoutException ex)
                {
                    // Nothing to read just now: look at the condition again.
                }
            }
        }
        finally
        {
            socket.setSoTimeout(30_000);
        }
    }

    @Override
    public void close() throws IOException
    {
        socket.close();
    }

    /**
     * Sleeps before each read of at most 4 KiB, as a client that handles every read slowly.
     */
    private static final class Pausing extends FilterInputStream
    {
        private final long pauseMillis;

        Pausing(final InputStream in, final long pauseMillis)
        {
            super(in);
            this.pauseMillis = pauseMillis;
        }

        @Override
        public int read(final byte[] buffer, final int offset, final int length) throws IOException
        {
            try
            {
                Thread.sleep(pauseMillis);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", ex);
            }
            return super.read(buffer, offset, Math.min(length, 4096));
        }
    }
}
