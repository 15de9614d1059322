package io.celer.bench.peer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A counter of messages done, shared by a client and the harness through a memory-mapped file.
 *
 * <p>Printing progress would allocate and make system calls on the measured thread; a plain store to a
 * shared page does neither. The C peer maps the same eight bytes, in the machine's byte order.
 */
public final class ProgressFile
{
    /** How often a client publishes its count: every this many messages (a power of two). */
    public static final int EVERY = 1024;

    private final ByteBuffer counter;

    private ProgressFile(final ByteBuffer counter)
    {
        this.counter = counter;
        counter.order(ByteOrder.nativeOrder());
    }

    /**
     * Creates the file, zeroed, for a run about to start.
     *
     * @param path where.
     * @return the counter, for reading.
     */
    public static ProgressFile create(final Path path)
    {
        try
        {
            Files.write(path, new byte[Long.BYTES]);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return open(path);
    }

    /**
     * Maps an existing file.
     *
     * @param path the file, or null for a counter nobody reads.
     * @return the counter.
     */
    public static ProgressFile open(final Path path)
    {
        if (path == null)
        {
            return new ProgressFile(ByteBuffer.allocateDirect(Long.BYTES));
        }
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            return new ProgressFile(channel.map(FileChannel.MapMode.READ_WRITE, 0, Long.BYTES));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Publishes a count.
     *
     * @param done messages done so far.
     */
    public void set(final long done)
    {
        counter.putLong(0, done);
    }

    /**
     * Reads the count.
     *
     * @return messages done so far.
     */
    public long get()
    {
        return counter.getLong(0);
    }
}
