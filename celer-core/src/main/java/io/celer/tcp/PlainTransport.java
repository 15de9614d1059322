package io.celer.tcp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;

/**
 * Bytes as they are: the default transport, stateless and shared by every connection.
 */
final class PlainTransport implements Transport, TransportFactory
{
    /** The one instance. */
    public static final PlainTransport INSTANCE = new PlainTransport();

    private PlainTransport()
    {
    }

    @Override
    public Transport newTransport(final boolean clientMode, final String peerHost, final int peerPort)
    {
        return this;
    }

    @Override
    public boolean handshake(final ByteChannel channel)
    {
        return true;
    }

    @Override
    public int read(final ByteChannel channel, final ByteBuffer destination, final boolean fromSocket)
        throws IOException
    {
        return fromSocket ? channel.read(destination) : 0;
    }

    @Override
    public boolean hasBufferedInput()
    {
        return false;
    }

    @Override
    public void write(final ByteChannel channel, final ByteBuffer source) throws IOException
    {
        channel.write(source);
    }

    @Override
    public boolean hasPendingOutput()
    {
        return false;
    }

    @Override
    public void shutdown(final ByteChannel channel)
    {
    }
}
