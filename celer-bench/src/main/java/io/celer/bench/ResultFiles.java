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
     * Writes a run without a plot: {@code KIND-STAMP.json/.md} and {@code latest-KIND.json/.md}.
     *
     * @param kind     names the files: {@code batching}, {@code throughput}.
     * @param dir      the results directory, created if missing.
     * @param started  when the run started.
     * @param report   the run, written as JSON.
     * @param markdown the run as a Markdown table.
     * @return the dated files.
     */
    static Written writeTable(final String kind, final Path dir, final OffsetDateTime started, final Object report,
        final String markdown)
    {
        final String base = kind + "-" + STAMP.format(started);
        try
        {
            Files.createDirectories(dir);
            final Path json = dir.resolve(base + ".json");
            final Path md = dir.resolve(base + ".md");
            JSON.writeValue(json.toFile(), report);
            Files.writeString(md, markdown, StandardCharsets.UTF_8);
            Files.copy(json, dir.resolve("latest-" + kind + ".json"), StandardCopyOption.REPLACE_EXISTING);
            Files.copy(md, dir.resolve("latest-" + kind + ".md"), StandardCopyOption.REPLACE_EXISTING);
            return new Written(json, md, null);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write results under " + dir, ex);
        }
    }
}
