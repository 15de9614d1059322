package io.celer.examples;

import java.nio.ByteBuffer;

import io.celer.tcp.Connection;
import io.celer.tcp.Handler;

/**
 * DISCARD (RFC 863): drops whatever clients send, answering nothing.
 *
 * <p>A handler; run it with {@code new TcpServer(reactor, port, new TcpConfig(), new DiscardServer()).open()}.
 */
public final class DiscardServer implements Handler
{
    private volatile long bytesDiscarded;

    /**
     * Bytes dropped so far over all connections; readable from any thread.
     *
     * @return bytes.
     */
    public long bytesDiscarded()
    {
        return bytesDiscarded;
    }

    /**
     * Drops the bytes: moving the position to the limit tells the connection they were consumed.
     */
    @Override
    public void message(final Connection connection, final ByteBuffer message)
    {
        // Only the reactor thread writes the counter, so a plain read-add-write is safe.
        bytesDiscarded = bytesDiscarded + message.remaining();
        message.position(message.limit());
    }
}
