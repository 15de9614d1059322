package io.celer.counters;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.Set;

import static io.celer.counters.CountersLayout.CAPACITY_OFFSET;
import static io.celer.counters.CountersLayout.HIGH_WATER_OFFSET;
import static io.celer.counters.CountersLayout.INT;
import static io.celer.counters.CountersLayout.LONG;
import static io.celer.counters.CountersLayout.MAGIC;
import static io.celer.counters.CountersLayout.MAGIC_OFFSET;
import static io.celer.counters.CountersLayout.NAME_MAX;
import static io.celer.counters.CountersLayout.NAME_OFFSET;
import static io.celer.counters.CountersLayout.PID_OFFSET;
import static io.celer.counters.CountersLayout.SCOPE_MAX;
import static io.celer.counters.CountersLayout.SCOPE_OFFSET;
import static io.celer.counters.CountersLayout.SLOTS_OFFSET;
import static io.celer.counters.CountersLayout.START_MILLIS_OFFSET;
import static io.celer.counters.CountersLayout.STATE_ALLOCATED;
import static io.celer.counters.CountersLayout.STATE_CONTINUATION;
import static io.celer.counters.CountersLayout.STATE_FREED;
import static io.celer.counters.CountersLayout.STATE_OFFSET;
import static io.celer.counters.CountersLayout.STATE_UNUSED;
import static io.celer.counters.CountersLayout.TAG_MAX;
import static io.celer.counters.CountersLayout.TAG_OFFSET;
import static io.celer.counters.CountersLayout.TYPE_OFFSET;
import static io.celer.counters.CountersLayout.VALUE_LENGTH;
import static io.celer.counters.CountersLayout.VERSION;
import static io.celer.counters.CountersLayout.VERSION_OFFSET;
import static io.celer.counters.CountersLayout.metadataOffset;
import static io.celer.counters.CountersLayout.valueOffset;

/**
 * The counters of one process, in a memory-mapped file that {@code ./celer stat} and {@link CountersReader} read
 * from outside: made on first use, at {@code ${java.io.tmpdir}/celer-<user>/<pid>.counters} (the directory is
 * {@code -Dceler.counters.dir}), deleted when the JVM exits normally. {@code -Dceler.counters=memory} keeps
 * them in this process only, {@code -Dceler.counters=off} turns every counter's writes off;
 * {@code -Dceler.counters.capacity} is the number of counters (8192).
 *
 * <p>Counters are allocated at setup (a reactor's, a server's), through a {@link CounterScope}, and freed with it.
 */
public final class Counters
{
    private static final System.Logger LOG = System.getLogger(Counters.class.getName());

    /** Read once: a constant the JIT folds, so that counters off cost nothing at all. */
    static final boolean ENABLED = !"off".equalsIgnoreCase(System.getProperty("celer.counters", "on"));

    private static Counters process;

    /** What every counter is with counters off: never written, so one for all. */
    static final Counter DISABLED_COUNTER = new Counter(ByteBuffer.allocate(8), 0);
    static final LatencyHistogram DISABLED_HISTOGRAM =
        new LatencyHistogram(ByteBuffer.allocate(LatencyHistogram.SLOTS * VALUE_LENGTH), 0);

    private final ByteBuffer buffer;
    private final Path file;
    private final int capacity;
    private final Set<String> scopeNames = new HashSet<>();
    private int highWater;

    private Counters(final ByteBuffer buffer, final Path file, final int capacity)
    {
        this.buffer = buffer;
        this.file = file;
        this.capacity = capacity;
        INT.set(buffer, MAGIC_OFFSET, MAGIC);
        INT.set(buffer, VERSION_OFFSET, VERSION);
        LONG.set(buffer, PID_OFFSET, ProcessHandle.current().pid());
        LONG.set(buffer, START_MILLIS_OFFSET, System.currentTimeMillis());
        INT.setRelease(buffer, CAPACITY_OFFSET, capacity);
    }

    /**
     * This process's counters, made on first call.
     *
     * @return the counters every reactor of this process registers with.
     */
    public static synchronized Counters process()
    {
        if (process == null)
        {
            process = open();
        }
        return process;
    }

    /**
     * Counters in this process's memory only, for a test or a tool.
     *
     * @param capacity the most counters.
     * @return new counters.
     */
    public static Counters inMemory(final int capacity)
    {
        return new Counters(ByteBuffer.allocateDirect((int)CountersLayout.fileLength(capacity))
            .order(ByteOrder.nativeOrder()), null, capacity);
    }

    /**
     * The directory where processes write their counters files: {@code -Dceler.counters.dir}, else
     * {@code ${java.io.tmpdir}/celer-<user>}.
     *
     * @return the directory.
     */
    public static Path directory()
    {
        final String dir = System.getProperty("celer.counters.dir");
        if (dir != null && !dir.isEmpty())
        {
            return Paths.get(dir);
        }
        return Paths.get(System.getProperty("java.io.tmpdir"), "celer-" + System.getProperty("user.name", "user"));
    }

    /**
     * Whether counters are written at all ({@code -Dceler.counters=off} turns them off).
     *
     * @return true unless off.
     */
    public static boolean enabled()
    {
        return ENABLED;
    }

    private static Counters open()
    {
        final int capacity = Integer.getInteger("celer.counters.capacity", 8192);
        if (capacity < 64 || capacity > 1 << 20)
        {
            throw new IllegalArgumentException("celer.counters.capacity must be in [64, 1048576]: " + capacity);
        }
        final String mode = System.getProperty("celer.counters", "on");
        if (!ENABLED || "memory".equalsIgnoreCase(mode))
        {
            return inMemory(ENABLED ? capacity : 64);
        }
        final Path dir = directory();
        final Path path = dir.resolve(ProcessHandle.current().pid() + ".counters");
        try
        {
            Files.createDirectories(dir);
            deleteStale(dir);
            final MappedByteBuffer mapped;
            try (FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING))
            {
                mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, CountersLayout.fileLength(capacity));
            }
            final Counters counters = new Counters(mapped.order(ByteOrder.nativeOrder()), path, capacity);
            Runtime.getRuntime().addShutdownHook(new Thread(counters::deleteFile, "celer-counters-cleanup"));
            return counters;
        }
        catch (final IOException | RuntimeException ex)
        {
            LOG.log(System.Logger.Level.WARNING, "cannot write counters to " + path + " (" + ex +
                "); they stay in this process");
            return inMemory(capacity);
        }
    }

    /**
     * Deletes the files left by processes that died without cleaning up (killed, say), as Aeron clears a dead
     * driver's directory on start: their counters are frozen and would pile up. A file whose process lives is
     * kept, even if its pid was reused, since the reader tells those apart.
     *
     * @param dir the counters directory.
     * @return how many files were deleted.
     */
    static int deleteStale(final Path dir)
    {
        int deleted = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.counters"))
        {
            for (final Path file : files)
            {
                final String name = file.getFileName().toString();
                final long pid = pidOf(name.substring(0, name.length() - ".counters".length()));
                if (pid > 0 && ProcessHandle.of(pid).isEmpty() && Files.deleteIfExists(file))
                {
                    deleted++;
                }
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            LOG.log(System.Logger.Level.DEBUG, "cannot clear stale counter files in " + dir, ex);
        }
        return deleted;
    }

    private static long pidOf(final String name)
    {
        try
        {
            return Long.parseLong(name);
        }
        catch (final NumberFormatException notOurs)
        {
            return -1;
        }
    }

    private void deleteFile()
    {
        try
        {
            Files.deleteIfExists(file);
        }
        catch (final IOException ex)
        {
            LOG.log(System.Logger.Level.DEBUG, "cannot delete " + file, ex);
        }
    }

    /**
     * The file that holds them.
     *
     * @return the path, or null when they are in memory only.
     */
    public Path file()
    {
        return file;
    }

    /**
     * A reader over these counters, in this process.
     *
     * @return a reader.
     */
    public CountersReader reader()
    {
        return new CountersReader(buffer.duplicate().order(ByteOrder.nativeOrder()), file);
    }

    /**
     * A set of counters freed together, labelled with a name unique among the live scopes (a suffix
     * {@code #2}, {@code #3}... tells apart two of the same name).
     *
     * @param name what owns them, a reactor's name say.
     * @return the scope.
     */
    public synchronized CounterScope scope(final String name)
    {
        String unique = name;
        for (int i = 2; !scopeNames.add(unique); i++)
        {
            unique = name + "#" + i;
        }
        return new CounterScope(this, unique);
    }

    synchronized void releaseScope(final String name)
    {
        scopeNames.remove(name);
    }

    /**
     * Allocates a run of records for one counter (one slot) or histogram (several).
     *
     * @return the first record's id, or -1 when full.
     */
    synchronized int allocate(final CounterType type, final String scope, final String name, final String tag,
        final int slots)
    {
        final int id = findFree(slots);
        if (id < 0)
        {
            return -1;
        }
        for (int i = 0; i < slots; i++)
        {
            final int offset = valueOffset(capacity, id + i);
            for (int b = 0; b < VALUE_LENGTH; b += 8)
            {
                LONG.setRelease(buffer, offset + b, 0L);
            }
            if (i > 0)
            {
                INT.setRelease(buffer, metadataOffset(id + i) + STATE_OFFSET, STATE_CONTINUATION);
            }
        }
        final int record = metadataOffset(id);
        INT.set(buffer, record + TYPE_OFFSET, type.id());
        INT.set(buffer, record + SLOTS_OFFSET, slots);
        putText(record + SCOPE_OFFSET, scope, SCOPE_MAX);
        putText(record + NAME_OFFSET, name, NAME_MAX);
        putText(record + TAG_OFFSET, tag, TAG_MAX);
        INT.setRelease(buffer, record + STATE_OFFSET, STATE_ALLOCATED);
        if (id + slots > highWater)
        {
            highWater = id + slots;
            INT.setRelease(buffer, HIGH_WATER_OFFSET, highWater);
        }
        return id;
    }

    synchronized void free(final int id)
    {
        final int slots = (int)INT.get(buffer, metadataOffset(id) + SLOTS_OFFSET);
        for (int i = slots - 1; i >= 0; i--)
        {
            INT.setRelease(buffer, metadataOffset(id + i) + STATE_OFFSET, STATE_FREED);
        }
    }

    private int findFree(final int slots)
    {
        // Records never used first: a freed one is taken again only when those run out, so that a late write
        // through a stopped reactor's counter seldom lands in another's.
        if (highWater + slots <= capacity)
        {
            return highWater;
        }
        int run = 0;
        for (int id = 0; id < capacity; id++)
        {
            final int state = (int)INT.get(buffer, metadataOffset(id) + STATE_OFFSET);
            run = state == STATE_UNUSED || state == STATE_FREED ? run + 1 : 0;
            if (run == slots)
            {
                return id - slots + 1;
            }
        }
        return -1;
    }

    private void putText(final int offset, final String text, final int max)
    {
        final byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        final int length = Math.min(bytes.length, max);
        buffer.put(offset, (byte)length);
        for (int i = 0; i < length; i++)
        {
            buffer.put(offset + 1 + i, bytes[i]);
        }
    }

    Counter counterAt(final int id)
    {
        return new Counter(buffer, valueOffset(capacity, id));
    }

    LatencyHistogram histogramAt(final int id)
    {
        return new LatencyHistogram(buffer, valueOffset(capacity, id));
    }
}
