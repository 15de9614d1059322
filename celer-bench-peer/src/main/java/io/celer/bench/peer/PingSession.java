package io.celer.bench.peer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

import org.HdrHistogram.Histogram;

/**
 * The client's side of the ping-pong, whatever the transport: what to send next, and the round trips.
 *
 * <p>Warm-up messages, then a {@link Markers#MEASURE_START} marker, the measured messages, and a
 * {@link Markers#MEASURE_END} marker. Allocates nothing per message: the histogram is sized for a minute
 * up front and a round trip longer than that is clamped.
 *
 * <p>Over UDP a datagram or its echo may be lost: the client asks {@link #resendDue(long)} now and then, and
 * takes echoes with {@link #onDatagramEcho(long)}, which ignores the late echo of a datagram given up on.
 */
public final class PingSession
{
    /** Longest round trip the histogram tells apart, in nanoseconds. */
    public static final long HIGHEST_TRACKABLE_NANOS = 60_000_000_000L;

    /** How long a UDP client waits for an echo before it sends again; the C peer uses the same. */
    public static final int RESEND_AFTER_MILLIS = 100;

    /** How often a UDP client asks {@link #resendDue(long)}, in milliseconds. */
    public static final int RESEND_CHECK_MILLIS = 10;

    private static final long RESEND_AFTER_NANOS = RESEND_AFTER_MILLIS * 1_000_000L;

    private final int warmup;
    private final int messages;
    private final Histogram warmupHistogram = new Histogram(HIGHEST_TRACKABLE_NANOS, 3);
    private final Histogram histogram = new Histogram(HIGHEST_TRACKABLE_NANOS, 3);
    private final IoThreadProbe probe = new IoThreadProbe("client");
    private final ProgressFile progress;

    private Histogram recording = warmupHistogram;
    private boolean measuring;
    private boolean finished;
    private int target;
    private int done;
    private long doneBefore;
    private long lastSent;
    private long lastSentAt;
    private long lost;
    private long late;

    /**
     * A session as the harness asks a ping client for one: {@code --warmup=N --messages=N --progress=FILE}.
     *
     * @param child the client's process.
     * @return the session.
     */
    public static PingSession of(final ChildProcess child)
    {
        return new PingSession(child.intArg("warmup", 0), child.intArg("messages", 1),
            ProgressFile.open(child.pathArg("progress")));
    }

    /**
     * A session.
     *
     * @param warmup   round trips before measuring.
     * @param messages round trips measured.
     * @param progress where the harness follows the count.
     */
    public PingSession(final int warmup, final int messages, final ProgressFile progress)
    {
        if (messages < 1 || warmup < 0)
        {
            throw new IllegalArgumentException("warmup " + warmup + ", messages " + messages);
        }
        this.warmup = warmup;
        this.messages = messages;
        this.progress = progress;
        this.target = warmup;
    }

    /**
     * The first value to send.
     *
     * @return a timestamp or a marker.
     */
    public long first()
    {
        return sent(warmup > 0 ? System.nanoTime() : Markers.MEASURE_START);
    }

    /**
     * Takes an echo and says what to send next; call as soon as the echo is read.
     *
     * <p>Warm-up and measured round trips take the same path, into different histograms, so the code the
     * JIT compiled during warm-up is the code measured, with no branch left to deoptimize on.
     *
     * @param echoed the value the server sent back.
     * @return the next value to send, or {@link Markers#DONE}.
     * @throws IllegalStateException if the echo is not what was sent last.
     */
    public long onEcho(final long echoed)
    {
        final long now = System.nanoTime();
        if (echoed != lastSent)
        {
            throw new IllegalStateException("echo of " + echoed + " when " + lastSent + " was sent");
        }
        if (echoed == Markers.MEASURE_START)
        {
            recording = histogram;
            measuring = true;
            target = messages;
            doneBefore = done;
            done = 0;
            probe.begin();
            return sent(System.nanoTime());
        }
        if (echoed == Markers.MEASURE_END)
        {
            finished = true;
            return Markers.DONE;
        }
        recording.recordValue(Math.min(HIGHEST_TRACKABLE_NANOS, Math.max(1, now - echoed)));
        if (++done % ProgressFile.EVERY == 0)
        {
            progress.set(doneBefore + done);
        }
        if (done < target)
        {
            return sent(System.nanoTime());
        }
        if (!measuring)
        {
            return sent(Markers.MEASURE_START);
        }
        probe.end(done);
        progress.set(doneBefore + done);
        return sent(Markers.MEASURE_END);
    }

    /**
     * Takes a datagram's echo: like {@link #onEcho(long)}, except that the echo of anything but the last
     * datagram sent, which arrives after the client gave up on it, is counted and ignored.
     *
     * @param echoed the value the server sent back.
     * @return the next value to send, {@link Markers#DONE}, or {@link Markers#NOTHING} for a late echo.
     */
    public long onDatagramEcho(final long echoed)
    {
        if (echoed != lastSent)
        {
            late++;
            return Markers.NOTHING;
        }
        return onEcho(echoed);
    }

    /**
     * Whether the echo of the last datagram is overdue; call every {@link #RESEND_CHECK_MILLIS} or so.
     *
     * <p>An overdue marker is sent again as is: the server takes a repeated marker in its stride. An overdue
     * timestamp counts as lost (when measuring) and a fresh one replaces it, so no round trip is stretched by
     * the wait.
     *
     * @param nowNanos {@link System#nanoTime()}.
     * @return what to send now, or {@link Markers#NOTHING}.
     */
    public long resendDue(final long nowNanos)
    {
        if (finished || nowNanos - lastSentAt < RESEND_AFTER_NANOS)
        {
            return Markers.NOTHING;
        }
        if (isMarker(lastSent))
        {
            return sent(lastSent);
        }
        if (measuring)
        {
            lost++;
        }
        return sent(System.nanoTime());
    }

    private static boolean isMarker(final long value)
    {
        return value == Markers.MEASURE_START || value == Markers.MEASURE_END;
    }

    private long sent(final long value)
    {
        lastSent = value;
        lastSentAt = isMarker(value) ? System.nanoTime() : value;
        return value;
    }

    /**
     * Datagrams given up on while measuring.
     *
     * @return the count.
     */
    public long lost()
    {
        return lost;
    }

    /**
     * Echoes that came after their datagram was given up on, over the whole run.
     *
     * @return the count.
     */
    public long late()
    {
        return late;
    }

    /**
     * Whether the last marker came back.
     *
     * @return true when done.
     */
    public boolean finished()
    {
        return finished;
    }

    /**
     * Writes the round trips, HdrHistogram's compressed encoding, for the harness.
     *
     * @param file where.
     */
    public void writeHistogram(final Path file)
    {
        final ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        final int length = histogram.encodeIntoCompressedByteBuffer(buffer);
        try
        {
            Files.write(file, java.util.Arrays.copyOf(buffer.array(), length));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Hands the harness the run: the round trips to {@code --histogram}'s file, the stats line on standard output.
     *
     * @param child the client's process.
     */
    public void report(final ChildProcess child)
    {
        writeHistogram(child.pathArg("histogram"));
        ChildProcess.report(statsLine());
    }

    /**
     * The client's line for the harness.
     *
     * @return the probe's stats line, with the datagrams lost and echoes late.
     */
    public String statsLine()
    {
        return probe.statsLine() + " lost=" + lost + " late=" + late;
    }
}
