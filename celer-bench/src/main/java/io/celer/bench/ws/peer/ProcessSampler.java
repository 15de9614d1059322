package io.celer.bench.ws.peer;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.function.LongSupplier;

import io.celer.bench.peer.ResidentSet;
import io.celer.bench.peer.ProcessCpu;

/**
 * Watches a feed server's process from a daemon thread: each second appends a
 * {@code sample ms=EPOCH heap=BYTES rss=BYTES gc=COUNT clients=N cpu_ms=MS} line to a file (the process's user
 * and system CPU time so far; absent where {@code /proc} cannot be read), exits the process once its
 * resident set passes a cap (after a {@code capped ms=... rss=...} line), and, if asked, once clients came and
 * all left. Exiting runs the peer's shutdown hook, which prints its stats line; the harness needs no stop command.
 */
public final class ProcessSampler
{
    private static final long CHECK_MILLIS = 100;
    private static final long SAMPLE_MILLIS = 1000;
    private static final long IDLE_MILLIS = 1000;
    private static final List<GarbageCollectorMXBean> COLLECTORS = ManagementFactory.getGarbageCollectorMXBeans();

    private final PrintWriter samples;
    private final long rssCapBytes;
    private final boolean exitWhenIdle;
    private final LongSupplier clients;

    private ProcessSampler(final PrintWriter samples, final long rssCapBytes, final boolean exitWhenIdle,
        final LongSupplier clients)
    {
        this.samples = samples;
        this.rssCapBytes = rssCapBytes;
        this.exitWhenIdle = exitWhenIdle;
        this.clients = clients;
    }

    /**
     * Starts watching as the options say; does nothing when they ask for none of it.
     *
     * @param options the feed's options: {@code --samples}, {@code --rss-cap-mb}, {@code --exit-when-idle}.
     * @param clients the clients on the feed, readable from any thread.
     */
    public static void start(final FeedOptions options, final LongSupplier clients)
    {
        if (options.samples == null && options.rssCapMb <= 0 && !options.exitWhenIdle)
        {
            return;
        }
        final PrintWriter samples;
        try
        {
            samples = options.samples == null ? null
                : new PrintWriter(Files.newBufferedWriter(options.samples, StandardCharsets.US_ASCII), true);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + options.samples, ex);
        }
        final ProcessSampler sampler = new ProcessSampler(samples, options.rssCapMb << 20, options.exitWhenIdle,
            clients);
        final Thread thread = new Thread(sampler::run, "process-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * The resident set of this process, from {@code /proc/self/status}.
     *
     * @return bytes, or -1 where there is no such file.
     */
    public static long residentBytes()
    {
        return ResidentSet.bytes();
    }

    private void run()
    {
        long nextSample = System.currentTimeMillis();
        boolean seenClients = false;
        long idleSince = -1;
        while (true)
        {
            final long now = System.currentTimeMillis();
            final long rss = residentBytes();
            final long connected = clients.getAsLong();
            if (now >= nextSample)
            {
                final ProcessCpu cpu = ProcessCpu.now();
                line("sample ms=" + now + " heap=" + heapUsed() + " rss=" + rss + " gc=" + gcCount() + " clients=" +
                    connected + (cpu == null ? "" : " cpu_ms=" + (cpu.userMillis() + cpu.systemMillis())));
                nextSample += SAMPLE_MILLIS;
            }
            if (rssCapBytes > 0 && rss > rssCapBytes)
            {
                line("capped ms=" + now + " rss=" + rss);
                System.err.println("resident set " + (rss >> 20) + " MiB passed the cap of " + (rssCapBytes >> 20) +
                    " MiB: exiting");
                System.exit(0);
            }
            seenClients |= connected > 0;
            idleSince = connected > 0 ? -1 : idleSince < 0 ? now : idleSince;
            if (exitWhenIdle && seenClients && idleSince >= 0 && now - idleSince >= IDLE_MILLIS)
            {
                System.exit(0);
            }
            try
            {
                Thread.sleep(CHECK_MILLIS);
            }
            catch (final InterruptedException ex)
            {
                return;
            }
        }
    }

    private void line(final String text)
    {
        if (samples != null)
        {
            samples.println(text);
        }
    }

    private static long heapUsed()
    {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static long gcCount()
    {
        long count = 0;
        for (final GarbageCollectorMXBean collector : COLLECTORS)
        {
            count += Math.max(0, collector.getCollectionCount());
        }
        return count;
    }
}
