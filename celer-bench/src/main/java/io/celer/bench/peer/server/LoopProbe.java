package io.celer.bench.peer.server;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import io.celer.bench.peer.IoThreadProbe;

/**
 * The probe of a server with one event loop: the loop's own allocation, counted on the loop, as the other
 * peers' {@link IoThreadProbe} does.
 */
public final class LoopProbe implements ServerProbe
{
    private static final long WAIT_SECONDS = 10;

    private final IoThreadProbe probe = new IoThreadProbe("server");
    private final Executor loop;
    private final LongSupplier messages;
    private final Supplier<String> extra;
    private final Runnable onBegin;
    private long beginMessages;
    private long beginNanos;

    /**
     * A probe of one loop.
     *
     * @param loop     runs a task on the event loop thread.
     * @param messages the loop's count of what it served, read on the loop.
     * @param extra    more {@code key=value} pairs for the stats line, read on the loop after the measure.
     */
    public LoopProbe(final Executor loop, final LongSupplier messages, final Supplier<String> extra)
    {
        this(loop, messages, () ->
        {
        }, extra);
    }

    /**
     * A probe of one loop whose server keeps more counts of its own since each mark.
     *
     * @param loop     runs a task on the event loop thread.
     * @param messages the loop's count of what it served, read on the loop.
     * @param onBegin  marks the server's own counts, run on the loop as the measure begins.
     * @param extra    more {@code key=value} pairs for the stats line, read on the loop after the measure.
     */
    public LoopProbe(final Executor loop, final LongSupplier messages, final Runnable onBegin,
        final Supplier<String> extra)
    {
        this.loop = loop;
        this.messages = messages;
        this.onBegin = onBegin;
        this.extra = extra;
    }

    @Override
    public void begin()
    {
        onLoop(() ->
        {
            onBegin.run();
            beginMessages = messages.getAsLong();
            beginNanos = System.nanoTime();
            probe.begin();
            return "";
        });
    }

    @Override
    public String statsLine()
    {
        return onLoop(() ->
        {
            final long nanos = System.nanoTime() - beginNanos;
            probe.end(messages.getAsLong() - beginMessages);
            return probe.statsLine(nanos) + " scope=io-thread" + extra.get();
        });
    }

    private String onLoop(final Supplier<String> task)
    {
        final CompletableFuture<String> result = new CompletableFuture<>();
        try
        {
            loop.execute(() -> result.complete(task.get()));
            return result.get(WAIT_SECONDS, TimeUnit.SECONDS);
        }
        catch (final Exception ex)
        {
            // A stopped or stuck loop: the harness sees the missing figures rather than a hang.
            return "stats missing: " + ex;
        }
    }
}
