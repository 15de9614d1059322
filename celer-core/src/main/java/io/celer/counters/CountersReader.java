package io.celer.counters;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static io.celer.counters.CountersLayout.CAPACITY_OFFSET;
import static io.celer.counters.CountersLayout.HEADER_LENGTH;
import static io.celer.counters.CountersLayout.HIGH_WATER_OFFSET;
import static io.celer.counters.CountersLayout.INT;
import static io.celer.counters.CountersLayout.LONG;
import static io.celer.counters.CountersLayout.MAGIC;
import static io.celer.counters.CountersLayout.MAGIC_OFFSET;
import static io.celer.counters.CountersLayout.NAME_OFFSET;
import static io.celer.counters.CountersLayout.PID_OFFSET;
import static io.celer.counters.CountersLayout.SCOPE_OFFSET;
import static io.celer.counters.CountersLayout.START_MILLIS_OFFSET;
import static io.celer.counters.CountersLayout.STATE_ALLOCATED;
import static io.celer.counters.CountersLayout.STATE_OFFSET;
import static io.celer.counters.CountersLayout.TAG_OFFSET;
import static io.celer.counters.CountersLayout.TYPE_OFFSET;
import static io.celer.counters.CountersLayout.VERSION;
import static io.celer.counters.CountersLayout.VERSION_OFFSET;
import static io.celer.counters.CountersLayout.metadataOffset;
import static io.celer.counters.CountersLayout.valueOffset;

/**
 * Reads a process's counters from outside, as {@code ./celer stat} does: opens its counters file read-only and
 * takes snapshots of every live counter. Never writes, never blocks the writer.
 */
public final class CountersReader
{
    private final ByteBuffer buffer;
    private final Path file;

    CountersReader(final ByteBuffer buffer, final Path file)
    {
        this.buffer = buffer;
        this.file = file;
    }

    /**
     * Maps a counters file.
     *
     * @param file a {@code <pid>.counters} file.
     * @return a reader.
     * @throws IOException when it cannot be read or is not a counters file of this version.
     */
    public static CountersReader open(final Path file) throws IOException
    {
        final ByteBuffer mapped;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            if (channel.size() < HEADER_LENGTH)
            {
                throw new IOException(file + " is not a counters file (" + channel.size() + " bytes)");
            }
            mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size()).order(ByteOrder.nativeOrder());
        }
        if ((int)INT.getAcquire(mapped, MAGIC_OFFSET) != MAGIC)
        {
            throw new IOException(file + " is not a counters file");
        }
        final int version = (int)INT.getAcquire(mapped, VERSION_OFFSET);
        if (version != VERSION)
        {
            throw new IOException(file + " has counters of version " + version + ", this reader knows " + VERSION);
        }
        final int capacity = (int)INT.getAcquire(mapped, CAPACITY_OFFSET);
        if (CountersLayout.fileLength(capacity) > mapped.capacity())
        {
            throw new IOException(file + " is shorter than its " + capacity + " counters");
        }
        return new CountersReader(mapped, file);
    }

    /**
     * The file read.
     *
     * @return its path, or null for counters in memory.
     */
    public Path file()
    {
        return file;
    }

    /**
     * The writing process's id.
     *
     * @return the pid.
     */
    public long pid()
    {
        return (long)LONG.getAcquire(buffer, PID_OFFSET);
    }

    /**
     * When the writer made the file.
     *
     * @return its start.
     */
    public Instant started()
    {
        return Instant.ofEpochMilli((long)LONG.getAcquire(buffer, START_MILLIS_OFFSET));
    }

    /**
     * Whether the writing process still runs: false for a file left by a process that died without cleaning up
     * (killed, say), whose counters are frozen.
     *
     * @return true while the process lives.
     */
    public boolean isWriterAlive()
    {
        final Optional<ProcessHandle> handle = ProcessHandle.of(pid());
        if (handle.isEmpty() || !handle.get().isAlive())
        {
            return false;
        }
        // A pid reused by a later process: it started after the file was made.
        final Optional<Instant> start = handle.get().info().startInstant();
        return start.isEmpty() || !start.get().isAfter(started().plusSeconds(1));
    }

    /**
     * Every live counter, in record order.
     *
     * @return a snapshot.
     */
    public List<CounterValue> snapshot()
    {
        final int capacity = (int)INT.getAcquire(buffer, CAPACITY_OFFSET);
        final int highWater = Math.min(capacity, (int)INT.getAcquire(buffer, HIGH_WATER_OFFSET));
        final List<CounterValue> values = new ArrayList<>();
        for (int id = 0; id < highWater; id++)
        {
            final int record = metadataOffset(id);
            if ((int)INT.getAcquire(buffer, record + STATE_OFFSET) != STATE_ALLOCATED)
            {
                continue;
            }
            final CounterType type = CounterType.ofId((int)INT.getAcquire(buffer, record + TYPE_OFFSET));
            if (type == null)
            {
                continue;
            }
            final String scope = text(record + SCOPE_OFFSET);
            final String name = text(record + NAME_OFFSET);
            final String tag = text(record + TAG_OFFSET);
            final int valueAt = valueOffset(capacity, id);
            if (type == CounterType.HISTOGRAM)
            {
                final long[] longs = new long[LatencyHistogram.LONGS];
                for (int i = 0; i < longs.length; i++)
                {
                    longs[i] = (long)LONG.getAcquire(buffer, valueAt + i * 8);
                }
                values.add(new CounterValue(id, type, scope, name, tag, longs[LatencyHistogram.COUNT],
                    new HistogramSnapshot(longs)));
            }
            else
            {
                values.add(new CounterValue(id, type, scope, name, tag, (long)LONG.getAcquire(buffer, valueAt), null));
            }
            // A record freed and taken again while read may mix two counters' labels: read it again then.
            if ((int)INT.getAcquire(buffer, record + STATE_OFFSET) != STATE_ALLOCATED)
            {
                values.remove(values.size() - 1);
            }
        }
        return values;
    }

    /**
     * The sum of one counter over every scope (every reactor) whose name starts with a prefix.
     *
     * @param scopePrefix the start of the scopes' names, "" for all.
     * @param name        the counter's name.
     * @param tag         its tag, "" for none.
     * @return the sum, 0 when there is none.
     */
    public long sum(final String scopePrefix, final String name, final String tag)
    {
        long sum = 0;
        for (final CounterValue value : snapshot())
        {
            if (value.scope().startsWith(scopePrefix) && value.name().equals(name) && value.tag().equals(tag))
            {
                sum += value.value();
            }
        }
        return sum;
    }

    private String text(final int offset)
    {
        final int length = buffer.get(offset) & 0xFF;
        final byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++)
        {
            bytes[i] = buffer.get(offset + 1 + i);
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
