package io.celer.tcp;

import java.nio.ByteBuffer;

/**
 * Where a connection's read and write buffers come from, and go back to when it closes: a pair of its own,
 * kept across its reconnects (a client's), or a server's pools, shared by its connections on the one reactor
 * thread.
 *
 * <p>A handler that closes its connection inside {@code message} still holds the read view until it returns;
 * the buffer waits in the pool meanwhile, and only the server's next accept, which cannot run during a
 * callback on the same thread, takes it.
 */
final class ConnectionBuffers
{
    private final int readSize;
    private final int writeSize;
    private final BufferPool readPool;
    private final BufferPool writePool;

    private ConnectionBuffers(final TcpConfig config, final BufferPool readPool, final BufferPool writePool)
    {
        this.readSize = config.readBufferSize();
        this.writeSize = config.writeBufferSize();
        this.readPool = readPool;
        this.writePool = writePool;
    }

    /**
     * One connection's own pair, made on its first connect.
     */
    static ConnectionBuffers own(final TcpConfig config)
    {
        return new ConnectionBuffers(config, null, null);
    }

    /**
     * A server's pools, bounded by {@link TcpConfig#bufferPoolSize}.
     */
    static ConnectionBuffers pooled(final TcpConfig config)
    {
        return new ConnectionBuffers(config, new BufferPool(config.readBufferSize(), config.bufferPoolSize()),
            new BufferPool(config.writeBufferSize(), config.bufferPoolSize()));
    }

    /**
     * Gives a starting connection its buffers: from the pools, or its own pair unless it has it already.
     */
    void lend(final ConnectionReader reader, final ConnectionWriter writer)
    {
        if (readPool != null)
        {
            reader.lend(readPool.take());
            writer.lend(writePool.take());
        }
        else if (!reader.hasBuffer())
        {
            reader.lend(ByteBuffer.allocateDirect(readSize));
            writer.lend(ByteBuffer.allocateDirect(writeSize));
        }
    }

    /**
     * Takes a closed connection's buffers back into the pools, at most once however often it is called; a
     * connection's own pair stays with it.
     */
    void takeBack(final ConnectionReader reader, final ConnectionWriter writer)
    {
        if (readPool != null)
        {
            readPool.give(reader.withdraw());
            writePool.give(writer.withdraw());
        }
    }

    /**
     * Lets the pooled buffers go, and keeps none given back until {@link #keep}.
     */
    void drain()
    {
        if (readPool != null)
        {
            readPool.drain();
            writePool.drain();
        }
    }

    /**
     * Keeps given-back buffers again.
     */
    void keep()
    {
        if (readPool != null)
        {
            readPool.keep();
            writePool.keep();
        }
    }

    BufferPool readPool()
    {
        return readPool;
    }

    BufferPool writePool()
    {
        return writePool;
    }
}
