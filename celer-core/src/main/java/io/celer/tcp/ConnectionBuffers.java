package io.celer.tcp;

import java.nio.ByteBuffer;

import io.celer.reactor.internal.ReactorPool;

/**
 * Where a connection's read and write buffers come from, and go back to: a pair of its own, kept across its
 * reconnects (a client's), or a server's pools, shared by its connections on the one reactor thread.
 *
 * <p>A server's connection borrows from the pools only while it uses a buffer: a read buffer while it holds
 * the start of a message (or bytes held back by a pause), a write buffer while it has bytes the socket has not
 * taken. An idle connection holds neither, so the pools hold as many buffers as connections were busy at once,
 * not as many as are open. A busy-polled connection keeps its pair from accept to close: it reads every cycle.
 *
 * <p>A handler that closes its connection inside {@code message} still holds the read view until it returns;
 * the buffer waits in the pool meanwhile, and only the server's next accept, which cannot run during a
 * callback on the same thread, takes it.
 */
final class ConnectionBuffers
{
    /** A closed connection's buffer: holds nothing and refuses every write, so a stale handle cannot write. */
    static final ByteBuffer NONE = ByteBuffer.allocate(0).asReadOnlyBuffer();
    private static final int DROP_BUFFER_SIZE = 16 * 1024;
    private static final long STARVED_RETRY_NANOS = 1_000_000_000L;
    /** Thrown while starved: made once, without a stack trace, since nothing can be made then. */
    private static final OutOfMemoryError NO_MEMORY = new OutOfMemoryError("no memory for a buffer")
    {
        @Override
        public synchronized Throwable fillInStackTrace()
        {
            return this;
        }
    };

    private final int readSize;
    private final int writeSize;
    private final ReactorPool<ByteBuffer> readPool;
    private final ReactorPool<ByteBuffer> writePool;
    private final boolean perUse;
    private final int floor;
    private boolean starved;
    private ByteBuffer dropBuffer;
    private long starvedAt;

    private ConnectionBuffers(final TcpConfig config, final ReactorPool<ByteBuffer> readPool,
        final ReactorPool<ByteBuffer> writePool)
    {
        this.readSize = config.readBufferSize();
        this.writeSize = config.writeBufferSize();
        this.readPool = readPool;
        this.writePool = writePool;
        this.perUse = readPool != null && !config.busyPoll();
        this.floor = config.bufferPoolSize();
    }

    /**
     * One connection's own pair, made on its first connect.
     */
    static ConnectionBuffers own(final TcpConfig config)
    {
        return new ConnectionBuffers(config, null, null);
    }

    /**
     * A server's pools: lending per use, they keep what the peak of busy connections needed, down to
     * {@link TcpConfig#bufferPoolSize} at each {@link #trim}; lending per connection (busy-polled ones), at
     * most that many.
     */
    static ConnectionBuffers pooled(final TcpConfig config)
    {
        final int maxKept = config.busyPoll() ? config.bufferPoolSize() : Integer.MAX_VALUE;
        return new ConnectionBuffers(config,
            ReactorPool.directBuffers(config.readBufferSize(), maxKept),
            ReactorPool.directBuffers(config.writeBufferSize(), maxKept));
    }

    /**
     * The bytes a connection's write buffer holds.
     */
    int writeSize()
    {
        return writeSize;
    }

    /**
     * Whether connections borrow a buffer only while they use it.
     */
    boolean perUse()
    {
        return perUse;
    }

    /**
     * Whether buffers come from a server's pools: only its connections read and drop input after a close.
     */
    boolean pooled()
    {
        return readPool != null;
    }

    /**
     * A buffer for reads whose bytes are dropped, cleared; made on first use and shared by the connections of
     * this reactor, apart from the pools, since a closing connection may still hold its read buffer.
     *
     * @throws OutOfMemoryError if there is no memory for it.
     */
    ByteBuffer dropBuffer()
    {
        if (dropBuffer == null)
        {
            dropBuffer = ByteBuffer.allocateDirect(DROP_BUFFER_SIZE);
        }
        return dropBuffer.clear();
    }

    /**
     * A read buffer for one use, cleared.
     *
     * @throws OutOfMemoryError if none is kept and there is no memory for one.
     */
    ByteBuffer takeRead()
    {
        return take(readPool);
    }

    /**
     * A write buffer for one use, cleared.
     *
     * @throws OutOfMemoryError if none is kept and there is no memory for one.
     */
    ByteBuffer takeWrite()
    {
        return take(writePool);
    }

    /**
     * Takes from a pool; once an allocation failed, fails at once until a buffer comes back or a second has
     * passed. The JDK's direct allocation that fails first collects and sleeps for up to half a second: one
     * such stall per second, not one per connection, is what the reactor's other connections can bear.
     */
    private ByteBuffer take(final ReactorPool<ByteBuffer> pool)
    {
        if (starved && pool.kept() == 0)
        {
            if (System.nanoTime() - starvedAt < STARVED_RETRY_NANOS)
            {
                throw NO_MEMORY;
            }
            starved = false;
        }
        try
        {
            return pool.take().clear();
        }
        catch (final OutOfMemoryError ex)
        {
            starved = true;
            starvedAt = System.nanoTime();
            throw ex;
        }
    }

    /**
     * Takes back a buffer borrowed for one use, now empty.
     */
    void giveRead(final ByteBuffer buffer)
    {
        readPool.give(buffer);
        starved = false;
    }

    /**
     * Takes back a buffer borrowed for one use, now empty.
     */
    void giveWrite(final ByteBuffer buffer)
    {
        writePool.give(buffer);
        starved = false;
    }

    /**
     * Lets go of the buffers a past peak of busy connections left, down to {@link TcpConfig#bufferPoolSize}.
     */
    void trim()
    {
        if (readPool != null)
        {
            readPool.trim(floor);
            writePool.trim(floor);
        }
    }

    /**
     * Gives a starting connection its buffers: none when it borrows per use, a pair from the pools, or its own
     * pair unless it has it already.
     */
    void lend(final TcpConnection connection)
    {
        if (perUse)
        {
            return;
        }
        if (readPool != null)
        {
            connection.readBuffer = readPool.take().clear();
            connection.writeBuffer = writePool.take().clear();
        }
        else if (connection.readBuffer == NONE)
        {
            connection.readBuffer = ByteBuffer.allocateDirect(readSize);
            connection.writeBuffer = ByteBuffer.allocateDirect(writeSize);
        }
    }

    /**
     * Takes a closed connection's buffers back into the pools, those it borrowed included, at most once however
     * often it is called; a connection's own pair stays with it.
     */
    void takeBack(final TcpConnection connection)
    {
        if (readPool != null)
        {
            giveBack(readPool, ConnectionReader.withdraw(connection));
            giveBack(writePool, ConnectionWriter.withdraw(connection));
        }
    }

    private void giveBack(final ReactorPool<ByteBuffer> pool, final ByteBuffer withdrawn)
    {
        if (withdrawn != NONE) // already given back by an earlier call
        {
            pool.give(withdrawn);
            starved = false;
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
