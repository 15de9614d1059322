package io.celer.bench.peer;

/**
 * Timestamp values that tell the server which phase the client is in.
 *
 * <p>They sit next to {@link Long#MIN_VALUE} because {@link System#nanoTime()} may be negative but never
 * comes near it; the C peer uses the same two values.
 */
public final class Markers
{
    /** The client finished warming up; the measured messages follow. */
    public static final long MEASURE_START = Long.MIN_VALUE + 1;

    /** The client received its last measured echo. */
    public static final long MEASURE_END = Long.MIN_VALUE + 2;

    /** What a client session returns when there is nothing more to send. */
    public static final long DONE = Long.MIN_VALUE;

    /** What a UDP client session returns when there is nothing to send now; never sent. */
    public static final long NOTHING = Long.MIN_VALUE + 3;

    private Markers()
    {
    }
}
