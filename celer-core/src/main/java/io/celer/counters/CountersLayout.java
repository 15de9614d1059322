package io.celer.counters;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Where things are in a counters file, after Agrona's counters: a header, then a metadata record per counter
 * (state, type, labels), then the values, each on its own pair of cache lines so that no two reactors' counters
 * share one. Accessed through {@code VarHandle}s over a {@code ByteBuffer} rather than Agrona's buffers, which
 * need the JDK's internal {@code Unsafe} exported.
 */
final class CountersLayout
{
    static final int MAGIC = 0x43454C52; // "CELR"
    static final int VERSION = 1;

    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 4;
    static final int PID_OFFSET = 8;
    static final int START_MILLIS_OFFSET = 16;
    static final int CAPACITY_OFFSET = 24;
    /** One past the highest record ever allocated: a reader looks no further. */
    static final int HIGH_WATER_OFFSET = 28;
    static final int HEADER_LENGTH = 128;

    static final int RECORD_LENGTH = 256;
    static final int STATE_OFFSET = 0;
    static final int TYPE_OFFSET = 4;
    static final int SLOTS_OFFSET = 8;
    static final int SCOPE_OFFSET = 16;
    static final int SCOPE_MAX = 63;
    static final int NAME_OFFSET = 80;
    static final int NAME_MAX = 79;
    static final int TAG_OFFSET = 160;
    static final int TAG_MAX = 95;

    static final int STATE_UNUSED = 0;
    static final int STATE_ALLOCATED = 1;
    static final int STATE_FREED = 2;
    /** The further value slots of a histogram: no counter of their own. */
    static final int STATE_CONTINUATION = 3;

    /** Two cache lines: the adjacent-line prefetcher pulls lines in pairs. */
    static final int VALUE_LENGTH = 128;

    static final VarHandle LONG = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());
    static final VarHandle INT = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.nativeOrder());

    private CountersLayout()
    {
    }

    static int metadataOffset(final int id)
    {
        return HEADER_LENGTH + id * RECORD_LENGTH;
    }

    static int valueOffset(final int capacity, final int id)
    {
        return HEADER_LENGTH + capacity * RECORD_LENGTH + id * VALUE_LENGTH;
    }

    static long fileLength(final int capacity)
    {
        return (long)HEADER_LENGTH + (long)capacity * (RECORD_LENGTH + VALUE_LENGTH);
    }
}
