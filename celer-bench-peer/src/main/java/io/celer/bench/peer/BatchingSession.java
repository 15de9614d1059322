package io.celer.bench.peer;

/**
 * The I/O thread's side of the batching benchmark, whatever the library: the ring it drains, the producers
 * that fill it, and the counts and times the harness reads.
 *
 * <p>The first {@code --warmup} messages are not timed; the measured phase runs from the moment the last of
 * them is handed to the connection until the last message is flushed.
 */
public final class BatchingSession
{
    /** Bytes of the length prefix before each message on the wire. */
    public static final int PREFIX = 4;

    /** The most messages a drain takes from one producer's lane. */
    private static final int MAX_BATCH = 4096;

    private static final int LANE_CAPACITY = 8192;

    /** Bytes of messages all lanes together hold at most, so that large messages do not take the heap. */
    private static final int RING_BYTES = 8 * 1024 * 1024;

    private final IoThreadProbe probe = new IoThreadProbe("client");
    private final MessageRing ring;
    private final Producers producers;
    private final ProgressFile progress;
    private final long warmup;
    private final long total;
    private final int frame;
    private long written;
    private long batches;
    private long batchesBefore;
    private long pauses;
    private long startNanos;
    private volatile long nanos = -1;

    /**
     * A session, its producers started and waiting for {@link #start()}.
     *
     * @param child the client's process: {@code --producers=P --warmup=N --messages=N --size=B --progress=FILE}.
     */
    public BatchingSession(final ChildProcess child)
    {
        final int size = child.intArg("size", 27);
        final int count = child.intArg("producers", 1);
        this.warmup = child.intArg("warmup", 0);
        this.total = warmup + child.intArg("messages", 1);
        this.frame = PREFIX + size;
        this.progress = ProgressFile.open(child.pathArg("progress"));
        final int laneCapacity = (int)Math.max(64, Math.min(LANE_CAPACITY, RING_BYTES / ((long)size * count)));
        this.ring = new MessageRing(count, laneCapacity, size);
        this.producers = new Producers(ring, count, total, Producers.getqMessage(size));
    }

    /**
     * The ring to drain.
     *
     * @return the ring.
     */
    public MessageRing ring()
    {
        return ring;
    }

    /**
     * Starts the producers; call on the I/O thread once the connection is open.
     */
    public void start()
    {
        if (warmup == 0)
        {
            measure();
        }
        producers.go();
    }

    /**
     * How many messages to take from each lane in one drain so that all of them fit the room the connection
     * has, so no write is ever refused and nothing has to be held back.
     *
     * @param freeBytes room the connection's write buffer has now.
     * @return messages per lane, 0 when not even one each fits.
     */
    public int drainLimit(final long freeBytes)
    {
        return (int)Math.min(MAX_BATCH, freeBytes / frame / ring.lanes());
    }

    /**
     * Counts one message handed to the connection; call on the I/O thread.
     */
    public void written()
    {
        if (++written == warmup)
        {
            measure();
        }
        if (written % ProgressFile.EVERY == 0)
        {
            progress.set(written);
        }
    }

    /**
     * Counts a drain that took messages; call on the I/O thread.
     */
    public void drained()
    {
        batches++;
    }

    /**
     * Counts a drain that stopped because the connection could not take even one more message; call on the
     * I/O thread.
     */
    public void paused()
    {
        pauses++;
    }

    /**
     * Whether every message was handed to the connection.
     *
     * @return true when the producers' last message is written.
     */
    public boolean allWritten()
    {
        return written == total;
    }

    /**
     * Ends the measured phase once the last message is flushed; call on the I/O thread.
     */
    public void finished()
    {
        final long elapsed = System.nanoTime() - startNanos;
        probe.end(total - warmup);
        progress.set(written);
        nanos = elapsed;
    }

    /**
     * The client's line for the harness, once the producers are done; call on the main thread.
     *
     * @return the stats line, with the drains, the pauses for a lagging connection and the producers' waits;
     *         null if not finished.
     * @throws InterruptedException if interrupted while waiting for the producers.
     */
    public String statsLine() throws InterruptedException
    {
        producers.join();
        final long measured = nanos;
        if (measured < 0)
        {
            return null;
        }
        return probe.statsLine(measured) + " batches=" + (batches - batchesBefore) + " pauses=" + pauses + " waits="
            + producers.waits() + " written=" + written + " published=" + producers.published();
    }

    private void measure()
    {
        probe.begin();
        batchesBefore = batches;
        startNanos = System.nanoTime();
    }
}
