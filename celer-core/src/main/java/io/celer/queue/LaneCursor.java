package io.celer.queue;

/**
 * The lane a mux's drain or a demux's round-robin claim starts with: one thread writes it on every call, so it
 * sits alone on its cache line, away from the fields the other threads read.
 */
abstract class LaneCursor extends PadHead
{
    /** The lane the next call starts with; kept below the lane count so it never overflows. */
    int next;
    /** Fills the rest of the eight bytes, where the JVM would otherwise put a subclass's int. */
    int p31;
}

/**
 * Padding between the cursor and the fields the other threads read.
 */
abstract class LaneCursorPadTail extends LaneCursor
{
    long p16, p17, p18, p19, p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p30;
}
