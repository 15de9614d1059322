package io.celer.tcp;

import java.nio.ByteBuffer;

import io.celer.reactor.internal.ReactorPool;

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
    /** A closed connection's buffer: holds nothing and refuses every write, so a stale handle cannot write. */
    static final ByteBuffer NONE = ByteBuffer.allocate(0).asReadOnlyBuffer();

    private final int readSize;
    private final int writeSize;
    private final ReactorPool<ByteBuffer> readPool;
    private final ReactorPool<ByteBuffer> writePool;

    private ConnectionBuffers(final TcpConfig config, final ReactorPool<ByteBuffer> readPool,
        final ReactorPool<ByteBuffer> writePool)
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
        return new ConnectionBuffers(config,
            ReactorPool.directBuffers(config.readBufferSize(), config.bufferPoolSize()),
            ReactorPool.directBuffers(config.writeBufferSize(), config.bufferPoolSize()));
    }

    /**
     * Gives a starting connection its buffers: from the pools, or its own pair unless it has it already.
     */
    void lend(final ConnectionReader reader, final ConnectionWriter writer)
    {
        if (readPool != null)
        {
            reader.lend(readPool.take().clear());
            writer.lend(writePool.take().clear());
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
            giveBack(readPool, reader.withdraw());
            giveBack(writePool, writer.withdraw());
        }
    }

    private static void giveBack(final ReactorPool<ByteBuffer> pool, final ByteBuffer withdrawn)
    {
        if (withdrawn != NONE) // already given back by an earlier call
        {
            pool.give(withdrawn);
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

    ReactorPool<ByteBuffer> readPool()
    {
        return readPool;
    }

    ReactorPool<ByteBuffer> writePool()
    {
        return writePool;
    }
}
