package io.celer.bench.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * Writes a {@link Report} under the results directory, the one place every benchmark's files are made: a dated
 * JSON ({@link Result} through Jackson), Markdown ({@link MarkdownWriter}) and, with a plot, PNG
 * ({@link PercentilePlot}, {@link LinePlot}, {@link TimeSeriesPlot} or {@link BarPlot}), and {@code latest-*}
 * copies of each.
 */
final class ResultFiles
{
    /** Fields are named in snake case from their records' components unless a record names one itself. */
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
        .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private ResultFiles()
    {
    }

    /**
     * Where a run's files went.
     *
     * @param json     the JSON.
     * @param markdown the Markdown.
     * @param png      the plot, or null for a report without one.
     */
    public record Written(Path json, Path markdown, Path png)
    {
        /**
         * The files, for the terminal.
         *
         * @return such as {@code a.json, a.md, a.png}.
         */
        public String list()
        {
            return json + ", " + markdown + (png == null ? "" : ", " + png);
        }
    }

    /**
     * The date in the files' names.
     *
     * @param started when the run started.
     * @return such as {@code 20260101-120000}.
     */
    static String stamp(final OffsetDateTime started)
    {
        return STAMP.format(started);
    }

    /**
     * Writes {@code NAME-STAMP.json/.md[/.png]} and {@code latest-NAME.json/.md[/.png]}.
     *
     * @param dir     the results directory, created if missing.
     * @param started when the run started, which dates the files.
     * @param report  the run.
     * @return the dated files.
     */
    public static Written write(final Path dir, final OffsetDateTime started, final Report report)
    {
        final String base = report.name() + "-" + stamp(started);
        final String latest = "latest-" + report.name();
        try
        {
            Files.createDirectories(dir);
            final Path json = dir.resolve(base + ".json");
            final Path markdown = dir.resolve(base + ".md");
            final Path png = report.hasPicture() ? dir.resolve(base + ".png") : null;
            JSON.writeValue(json.toFile(), report.result());
            Files.copy(json, dir.resolve(latest + ".json"), StandardCopyOption.REPLACE_EXISTING);
            if (png != null)
            {
                if (report.plot() != null)
                {
                    PercentilePlot.write(png, report.plot().title(), report.plot().lines());
                }
                else if (report.chart() != null)
                {
                    LinePlot.write(png, report.charts());
                }
                else if (report.bars() != null)
                {
                    BarPlot.write(png, report.bars());
                }
                else
                {
                    TimeSeriesPlot.write(png, report.timePlot().panels());
                }
                Files.copy(png, dir.resolve(latest + ".png"), StandardCopyOption.REPLACE_EXISTING);
            }
            // Each Markdown file names the plot beside it.
            Files.writeString(markdown, MarkdownWriter.render(report, png == null ? null : base + ".png"),
                StandardCharsets.UTF_8);
            Files.writeString(dir.resolve(latest + ".md"),
                MarkdownWriter.render(report, png == null ? null : latest + ".png"), StandardCharsets.UTF_8);
            return new Written(json, markdown, png);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write results under " + dir, ex);
        }
    }
}
