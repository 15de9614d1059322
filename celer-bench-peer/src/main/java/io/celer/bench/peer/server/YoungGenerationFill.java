package io.celer.bench.peer.server;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.Arrays;

/**
 * Fills the young generation once with garbage, for the harness's {@code fill-young} command, so that a
 * resident-set baseline taken after it counts the young generation's pages as a server that has run for a while
 * holds them.
 *
 * <p>Why: a server that makes (almost) no garbage has touched little of its young generation after a warm-up,
 * and the first megabytes allocated after the baseline, whatever for, then show as resident-set growth. That
 * growth is paid once and is bounded by the young generation's size, so charged to the connections opened
 * meanwhile it overstates what each costs, and more the less garbage a server makes.
 */
public final class YoungGenerationFill
{
    /** How the line starts. */
    public static final String PREFIX = "young ";

    private static final int CHUNK_BYTES = 64 * 1024;

    /** Holds the last chunks, so that the compiler cannot drop their allocation. */
    private static final byte[][] SINK = new byte[16][];

    private YoungGenerationFill()
    {
    }

    /**
     * Allocates garbage until the eden has been emptied once, or up to the heap's maximum twice over; a heap
     * without an eden (Epsilon, a single-generation ZGC) is left alone.
     *
     * @return {@code young filled_bytes=B collected=true|false ms=T}.
     */
    public static String fill()
    {
        final long start = System.nanoTime();
        final MemoryPoolMXBean eden = eden();
        long filled = 0;
        boolean collected = false;
        if (eden != null)
        {
            final long limit = 2 * Runtime.getRuntime().maxMemory();
            long last = eden.getUsage().getUsed();
            int next = 0;
            while (filled < limit && !collected)
            {
                SINK[next] = new byte[CHUNK_BYTES];
                next = (next + 1) % SINK.length;
                filled += CHUNK_BYTES;
                if ((filled & (1024 * 1024 - 1)) == 0)
                {
                    // The eden's use only grows between collections, so a fall means one emptied it.
                    final long used = eden.getUsage().getUsed();
                    collected = used < last;
                    last = used;
                }
            }
            Arrays.fill(SINK, null);
        }
        return PREFIX + "filled_bytes=" + filled + " collected=" + collected + " ms="
            + (System.nanoTime() - start) / 1_000_000;
    }

    private static MemoryPoolMXBean eden()
    {
        for (final MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans())
        {
            if (pool.getType() == MemoryType.HEAP && pool.getName().contains("Eden"))
            {
                return pool;
            }
        }
        return null;
    }
}
