package io.celer.tls;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;

import io.celer.test.Transports;

/**
 * A blocking TLS client driven by hand, so that a test can put any bytes on the wire after the handshake:
 * records cut anywhere, corrupt or oversized ones, a close_notify without the end of the stream.
 */
final class RawTlsPeer implements AutoCloseable
{
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final SSLEngine engine;
    private final ByteBuffer netIn;
    private final ByteBuffer appIn;
    private final byte[] chunk = new byte[16 * 1024];

    /**
     * Connects to {@code localhost} and completes the handshake, trusting the test CA.
     */
    RawTlsPeer(final int port, final String protocol) throws IOException
    {
        socket = new Socket("localhost", port);
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(10_000);
        in = socket.getInputStream();
        out = socket.getOutputStream();
        engine = Transports.clientContext().createSSLEngine("localhost", port);
        engine.setUseClientMode(true);
        final SSLParameters parameters = engine.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        parameters.setProtocols(new String[] {protocol});
        engine.setSSLParameters(parameters);
        netIn = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        appIn = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize());
        handshake();
    }

    private void handshake() throws IOException
    {
        engine.beginHandshake();
        for (int steps = 0; steps < 100; steps++)
        {
            switch (engine.getHandshakeStatus())
            {
                case NEED_WRAP:
                    out.write(wrap(ByteBuffer.allocate(0)));
                    break;
                case NEED_TASK:
                    Runnable task;
                    while ((task = engine.getDelegatedTask()) != null)
                    {
                        task.run();
                    }
                    break;
                case NEED_UNWRAP:
                case NEED_UNWRAP_AGAIN:
                    unwrapOnce();
                    break;
                default:
                    return;
            }
        }
        throw new SSLException("handshake did not finish in 100 steps");
    }

    /**
     * Unwraps one record, reading the socket until a whole one is there.
     */
    private SSLEngineResult unwrapOnce() throws IOException
    {
        while (true)
        {
            netIn.flip();
            final SSLEngineResult result = engine.unwrap(netIn, appIn);
            netIn.compact();
            if (result.getStatus() != SSLEngineResult.Status.BUFFER_UNDERFLOW)
            {
                return result;
            }
            final int n = in.read(chunk, 0, Math.min(chunk.length, netIn.remaining()));
            if (n < 0)
            {
                throw new EOFException("the server closed the connection");
            }
            netIn.put(chunk, 0, n);
        }
    }

    /**
     * Encrypts application bytes into records, without sending them.
     *
     * @return the records' bytes.
     */
    byte[] records(final String text) throws SSLException
    {
        return wrap(ByteBuffer.wrap(text.getBytes(StandardCharsets.ISO_8859_1)));
    }

    private byte[] wrap(final ByteBuffer source) throws SSLException
    {
        final ByteBuffer records = ByteBuffer.allocate(engine.getSession().getPacketBufferSize() * 4);
        do
        {
            engine.wrap(source, records);
        }
        while (source.hasRemaining());
        return Arrays.copyOf(records.array(), records.position());
    }

    /**
     * The close_notify alert, without sending it.
     *
     * @return its record's bytes.
     */
    byte[] closeNotify() throws SSLException
    {
        engine.closeOutbound();
        return wrap(ByteBuffer.allocate(0));
    }

    /**
     * Puts bytes on the wire as they are.
     */
    void send(final byte[] bytes, final int offset, final int length) throws IOException
    {
        out.write(bytes, offset, length);
        out.flush();
    }

    /**
     * Puts bytes on the wire as they are.
     */
    void send(final byte[] bytes) throws IOException
    {
        send(bytes, 0, bytes.length);
    }

    /**
     * Reads and decrypts until {@code length} application bytes arrived.
     *
     * @return them, as text.
     */
    String receive(final int length) throws IOException
    {
        for (int records = 0; appIn.position() < length && records < 1_000; records++)
        {
            if (unwrapOnce().getStatus() == SSLEngineResult.Status.CLOSED)
            {
                break;
            }
        }
        appIn.flip();
        final byte[] bytes = new byte[Math.min(length, appIn.remaining())];
        appIn.get(bytes);
        appIn.compact();
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    /**
     * Reads records until the server's close_notify or alert.
     *
     * @return true after a close_notify, false at the end of the stream without one.
     * @throws SSLException when the server sent a fatal alert.
     */
    boolean receiveClose() throws IOException
    {
        for (int records = 0; records < 1_000; records++)
        {
            try
            {
                if (unwrapOnce().getStatus() == SSLEngineResult.Status.CLOSED)
                {
                    return true;
                }
            }
            catch (final EOFException ex)
            {
                return false;
            }
        }
        throw new AssertionError("no close after 1000 records");
    }

    /**
     * Whether the server closed the TCP connection: the next read sees the end of the stream.
     */
    boolean endOfStream() throws IOException
    {
        return in.read() < 0;
    }

    @Override
    public void close() throws IOException
    {
        socket.close();
    }
}
