package io.celer.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * Writes a run's files under the results directory: a dated JSON, Markdown and PNG, and {@code latest-*}
 * copies.
 */
final class ResultFiles
{
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private ResultFiles()
    {
    }

    /**
     * Where a run's files went.
     *
     * @param json     the JSON.
     * @param markdown the Markdown table.
     * @param png      the plot, or null for runs without one.
     */
    record Written(Path json, Path markdown, Path png)
    {
    }

    /**
     * Writes a latency run: {@code tcp-STAMP.json/.md/.png} and {@code latest-tcp.json/.md/.png}, or the same
     * with {@code tcp-tls} or {@code udp}.
     *
     * @param protocol the run's protocol, which names the files.
     * @param tls      whether it went over TLS, which names them too.
     * @param dir      the results directory, created if missing.
     * @param started  when the run started.
     * @param report   the run.
     * @param lines    the plot's lines.
     * @return the dated files.
     */
    static Written writeLatency(final Protocol protocol, final boolean tls, final Path dir,
        final OffsetDateTime started, final LatencyRunReport report, final List<PercentilePlot.Line> lines)
    {
        // Distinct names, so that a TLS run never overwrites the plain one it is compared with.
        final String kind = protocol.id() + (tls ? "-tls" : "");
        final String base = kind + "-" + STAMP.format(started);
        final String latest = "latest-" + kind;
        try
        {
            Files.createDirectories(dir);
            final Path json = dir.resolve(base + ".json");
            final Path markdown = dir.resolve(base + ".md");
            final Path png = dir.resolve(base + ".png");
            JSON.writeValue(json.toFile(), report);
            PercentilePlot.write(png, String.format("%s round trip, %d-byte messages, %,d measured (%s)",
                protocol.title() + (tls ? " over TLS 1.3" : ""), report.size(), report.messages(),
                report.pinning().startsWith("not") ? "not pinned" : "pinned"), lines);
            Files.writeString(markdown, LatencyReport.markdown(protocol, report, png.getFileName().toString()),
                StandardCharsets.UTF_8);
            Files.copy(json, dir.resolve(latest + ".json"), StandardCopyOption.REPLACE_EXISTING);
            Files.copy(png, dir.resolve(latest + ".png"), StandardCopyOption.REPLACE_EXISTING);
            Files.writeString(dir.resolve(latest + ".md"), LatencyReport.markdown(protocol, report, latest + ".png"),
                StandardCharsets.UTF_8);
            return new Written(json, markdown, png);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write results under " + dir, ex);
        }
    }

    /**
     * Writes a batching run: {@code batching-STAMP.json/.md} and {@code latest-batching.json/.md}.
     *
     * @param dir     the results directory, created if missing.
     * @param started when the run started.
     * @param report  the run.
     * @return the dated files.
     */
    static Written writeBatching(final Path dir, final OffsetDateTime started, final BatchingReport report)
    {
        final String base = "batching-" + STAMP.format(started);
        try
        {
            Files.createDirectories(dir);
            final Path json = dir.resolve(base + ".json");
            final Path markdown = dir.resolve(base + ".md");
            JSON.writeValue(json.toFile(), report);
            Files.writeString(markdown, BatchingReport.markdown(report), StandardCharsets.UTF_8);
            Files.copy(json, dir.resolve("latest-batching.json"), StandardCopyOption.REPLACE_EXISTING);
            Files.copy(markdown, dir.resolve("latest-batching.md"), StandardCopyOption.REPLACE_EXISTING);
            return new Written(json, markdown, null);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write results under " + dir, ex);
        }
    }

    /**
     * Writes a throughput run: {@code throughput-STAMP.json/.md} and {@code latest-throughput.json/.md}.
     *
     * @param dir     the results directory, created if missing.
     * @param started when the run started.
     * @param report  the run.
     * @return the dated files.
     */
    static Written writeThroughput(final Path dir, final OffsetDateTime started, final ThroughputReport report)
    {
        final String base = "throughput-" + STAMP.format(started);
        try
        {
            Files.createDirectories(dir);
            final Path json = dir.resolve(base + ".json");
            final Path markdown = dir.resolve(base + ".md");
            JSON.writeValue(json.toFile(), report);
            Files.writeString(markdown, ThroughputReport.markdown(report), StandardCharsets.UTF_8);
            Files.copy(json, dir.resolve("latest-throughput.json"), StandardCopyOption.REPLACE_EXISTING);
            Files.copy(markdown, dir.resolve("latest-throughput.md"), StandardCopyOption.REPLACE_EXISTING);
            return new Written(json, markdown, null);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write results under " + dir, ex);
        }
    }
}
