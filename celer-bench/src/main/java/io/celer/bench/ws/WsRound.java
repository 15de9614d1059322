package io.celer.bench.ws;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.DataFormatException;

import org.HdrHistogram.Histogram;

import io.celer.bench.harness.BenchException;
import io.celer.bench.harness.SideStats;
import io.celer.bench.harness.Sides;

/**
 * One run of one peer in one scenario, read from what its processes left: the client's stats line, its file of
 * per-second counts and latency histogram, and the server's file of per-second memory samples.
 *
 * @param contender     the peer and scenario.
 * @param round         the round, from 1.
 * @param latency       the fast clients' latency from the send stamp while measuring, nanoseconds.
 * @param sinceDue      their latency from the due stamp, nanoseconds.
 * @param stats         both sides' stats lines.
 * @param beginMs       when the measure began, epoch milliseconds.
 * @param endMs         when it ended.
 * @param clientSamples the clients' rates each second of the measure.
 * @param serverSamples the server's memory during the measure.
 * @param server        the server's peak memory and collections during the measure.
 */
record WsRound(WsSettings.Contender contender, int round, Histogram latency, Histogram sinceDue,
    Sides<SideStats> stats, long beginMs,
    long endMs, List<WsResult.ClientSample> clientSamples, List<WsResult.ServerSample> serverSamples,
    WsResult.Server server)
{
    private static final double MB = 1024.0 * 1024.0;
    private static final long MIN_SPAN_MS = 500;

    /**
     * Reads a run.
     *
     * @param contender  the peer and scenario.
     * @param round      the round.
     * @param stats      both sides' stats lines.
     * @param clientFile the client's {@code --out} file.
     * @param samples    the server's {@code --samples} file.
     * @return the run.
     * @throws BenchException when a file lacks what the client or server must write.
     */
    static WsRound read(final WsSettings.Contender contender, final int round, final Sides<SideStats> stats,
        final Path clientFile, final Path samples)
    {
        final SideStats client = stats.client();
        final long begin = need(client, "begin_ms");
        final long end = need(client, "end_ms");
        Histogram latency = null;
        Histogram sinceDue = null;
        final List<WsResult.ClientSample> clientSamples = new ArrayList<>();
        Map<String, Long> previous = null;
        for (final String line : lines(clientFile))
        {
            if (line.startsWith("histogram "))
            {
                latency = decode(line.substring("histogram ".length()));
            }
            else if (line.startsWith("histogram-due "))
            {
                sinceDue = decode(line.substring("histogram-due ".length()));
            }
            else if (line.startsWith("second "))
            {
                final Map<String, Long> now = fields(line);
                // The line the end of the measure adds comes a moment after the last second's: too short a span.
                if (previous != null && now.get("ms") > begin && now.get("ms") - previous.get("ms") >= MIN_SPAN_MS)
                {
                    final double seconds = (now.get("ms") - previous.get("ms")) / 1000.0;
                    clientSamples.add(new WsResult.ClientSample((now.get("ms") - begin) / 1000.0,
                        (now.get("fast") - previous.get("fast")) / seconds,
                        (now.get("slow") - previous.get("slow")) / seconds,
                        Math.max(0, now.get("slow_lost") - previous.get("slow_lost")) / seconds));
                }
                previous = now;
            }
        }
        if (latency == null || sinceDue == null)
        {
            throw new BenchException(contender.id() + ": the client wrote no histograms to " + clientFile);
        }
        final List<WsResult.ServerSample> serverSamples = new ArrayList<>();
        double rssMax = 0;
        double heapMax = 0;
        long gcFirst = -1;
        long gcLast = -1;
        Double cappedAfter = null;
        for (final String line : lines(samples))
        {
            final Map<String, Long> sample = fields(line);
            final long ms = sample.getOrDefault("ms", 0L);
            if (line.startsWith("capped "))
            {
                cappedAfter = (ms - begin) / 1000.0;
            }
            else if (line.startsWith("sample ") && ms >= begin - 1000 && ms <= end + 1000)
            {
                final WsResult.ServerSample point = new WsResult.ServerSample((ms - begin) / 1000.0,
                    sample.get("rss") / MB, sample.get("heap") / MB, sample.get("gc"), sample.get("cpu_ms"));
                serverSamples.add(point);
                rssMax = Math.max(rssMax, point.rssMb());
                heapMax = Math.max(heapMax, point.heapMb());
                gcFirst = gcFirst < 0 ? point.gc() : gcFirst;
                gcLast = point.gc();
            }
        }
        final Long serverDropped = stats.server().number("dropped");
        return new WsRound(contender, round, latency, sinceDue, stats, begin, end, clientSamples, serverSamples,
            new WsResult.Server(rssMax, heapMax, Math.max(0, gcLast - gcFirst),
                serverDropped == null ? 0 : serverDropped, cappedAfter != null, cappedAfter));
    }

    /**
     * The measured time.
     *
     * @return seconds.
     */
    double measuredSeconds()
    {
        final Long nanos = stats.client().nanos();
        return nanos == null ? (endMs - beginMs) / 1000.0 : nanos / 1e9;
    }

    /**
     * A number of the client's stats line.
     *
     * @param key its name.
     * @return the value, 0 when absent.
     */
    long client(final String key)
    {
        final Long value = stats.client().number(key);
        return value == null ? 0 : value;
    }

    private static long need(final SideStats stats, final String key)
    {
        final Long value = stats.number(key);
        if (value == null)
        {
            throw new BenchException("the client's stats line has no " + key);
        }
        return value;
    }

    private static Map<String, Long> fields(final String line)
    {
        final Map<String, Long> values = new HashMap<>();
        for (final String pair : line.trim().split("\\s+"))
        {
            final int eq = pair.indexOf('=');
            if (eq > 0)
            {
                values.put(pair.substring(0, eq), Long.parseLong(pair.substring(eq + 1)));
            }
        }
        return values;
    }

    private static List<String> lines(final Path file)
    {
        try
        {
            return Files.exists(file) ? Files.readAllLines(file, StandardCharsets.US_ASCII) : List.of();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + file, ex);
        }
    }

    private static Histogram decode(final String base64)
    {
        try
        {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
        }
        catch (final DataFormatException | IllegalArgumentException ex)
        {
            throw new BenchException("corrupt latency histogram: " + ex.getMessage());
        }
    }
}
