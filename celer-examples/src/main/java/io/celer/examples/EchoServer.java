package io.celer.examples;

import java.nio.ByteBuffer;

import io.celer.tcp.Connection;
import io.celer.tcp.Handler;
import io.celer.tcp.TcpConfig;

/**
 * ECHO (RFC 862): sends every byte back to the client that sent it, as soon as it arrives.
 *
 * <p>A handler over raw bytes; run it with {@code new TcpServer(reactor, port, new TcpConfig(), new
 * EchoServer()).open()}. A client that keeps sending without reading fills the socket and then the write
 * buffer; the connection then closes, as {@link TcpConfig#disconnectOnFullWriteBuffer} is on by default.
 */
public final class EchoServer implements Handler
{
    /**
     * Sends the bytes back: write and flush in one call.
     */
    @Override
    public void message(final Connection connection, final ByteBuffer message)
    {
        connection.send(message);
    }
}
