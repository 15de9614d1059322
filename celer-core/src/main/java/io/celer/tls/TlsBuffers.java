package io.celer.tls;

import java.nio.ByteBuffer;

import io.celer.reactor.internal.ReactorPool;

/**
 * The record buffers TLS connections borrow while they hold bytes, one set per reactor thread: an idle TLS
 * connection holds none, so a thread keeps as many as its connections were busy at once, not as many as are
 * open. Encrypted records go through heap buffers, decrypted ones through direct buffers (see
 * {@link TlsTransport} for why).
 *
 * <p>Per thread rather than per server: the JDK sizes every engine's buffers alike, and a reactor thread's
 * connections of every server and client can share them. What a past peak left is let go of every 10 s of
 * use, down to {@link #FLOOR}.
 */
final class TlsBuffers
{
    /** Kept whatever the past peak, so a thread with a few busy connections never allocates. */
    static final int FLOOR = 16;
    private static final long TRIM_INTERVAL_NANOS = 10_000_000_000L;
    private static final int TAKES_PER_CLOCK_CHECK = 1024;
    private static final ThreadLocal<TlsBuffers> PER_THREAD = ThreadLocal.withInitial(TlsBuffers::new);

    private ReactorPool<ByteBuffer> packets;
    private int packetSize;
    private ReactorPool<ByteBuffer> plaintexts;
    private int plaintextSize;
    private int takes;
    private long trimmedAt = System.nanoTime();

    private TlsBuffers()
    {
    }

    /**
     * The calling thread's buffers.
     */
    static TlsBuffers ofThisThread()
    {
        return PER_THREAD.get();
    }

    /**
     * A heap buffer for encrypted records, cleared.
     *
     * @param size the engine's packet buffer size.
     */
    ByteBuffer takePacket(final int size)
    {
        if (packets == null)
        {
            packetSize = size;
            packets = new ReactorPool<>(Integer.MAX_VALUE, () -> ByteBuffer.allocate(packetSize));
        }
        if (size > packetSize)
        {
            return ByteBuffer.allocate(size); // larger than the JDK's engines ask for today; never pooled
        }
        tick();
        return packets.take().clear();
    }

    /**
     * Takes back an encrypted-record buffer, now empty.
     */
    void givePacket(final ByteBuffer buffer)
    {
        if (buffer.capacity() == packetSize)
        {
            packets.give(buffer);
        }
    }

    /**
     * A direct buffer for decrypted bytes, cleared.
     *
     * @param size the engine's application buffer size.
     */
    ByteBuffer takePlaintext(final int size)
    {
        if (plaintexts == null)
        {
            plaintextSize = size;
            plaintexts = ReactorPool.directBuffers(size, Integer.MAX_VALUE);
        }
        if (size > plaintextSize)
        {
            return ByteBuffer.allocateDirect(size);
        }
        tick();
        return plaintexts.take().clear();
    }

    /**
     * Takes back a decrypted-bytes buffer, now empty.
     */
    void givePlaintext(final ByteBuffer buffer)
    {
        if (buffer.capacity() == plaintextSize)
        {
            plaintexts.give(buffer);
        }
    }

    /**
     * Buffers lent now and not given back, of both kinds.
     *
     * @return how many.
     */
    int lent()
    {
        return (packets == null ? 0 : packets.lent()) + (plaintexts == null ? 0 : plaintexts.lent());
    }

    /**
     * Buffers kept for the next takers, of both kinds.
     *
     * @return how many.
     */
    int kept()
    {
        return (packets == null ? 0 : packets.kept()) + (plaintexts == null ? 0 : plaintexts.kept());
    }

    private void tick()
    {
        if (++takes < TAKES_PER_CLOCK_CHECK)
        {
            return;
        }
        takes = 0;
        final long now = System.nanoTime();
        if (now - trimmedAt >= TRIM_INTERVAL_NANOS)
        {
            trimmedAt = now;
            trim();
        }
    }

    /**
     * Lets go of what a past peak left, down to {@link #FLOOR}.
     */
    void trim()
    {
        if (packets != null)
        {
            packets.trim(FLOOR);
        }
        if (plaintexts != null)
        {
            plaintexts.trim(FLOOR);
        }
    }
}
