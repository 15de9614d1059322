package io.celer.bench.harness;

import java.util.ArrayList;
import java.util.List;

/**
 * The result model every benchmark fills and {@link ResultFiles} writes: the {@link Result} for JSON, and what
 * the Markdown file and the terminal show around it (a title, an introduction, facts, a legend, the table,
 * further tables, sections) and the picture, if any: a percentile plot, a line chart, a plot over time or bars.
 */
public final class Report
{
    private final String name;
    private final Result result;
    private final Table table;
    private final List<String> facts = new ArrayList<>();
    private final List<Section> sections = new ArrayList<>();
    private String title = "";
    private String intro = "";
    private String legend;
    private String notes;
    private Plot plot;
    private LinePlot.Chart chart;
    private final List<LinePlot.Chart> chartsBelow = new ArrayList<>();
    private TimePlot timePlot;
    private BarPlot.Chart bars;
    private final List<Titled> tables = new ArrayList<>();

    /**
     * A section of the Markdown file after the table.
     *
     * @param heading its heading.
     * @param body    its Markdown, ending with a newline.
     */
    public record Section(String heading, String body)
    {
    }

    /**
     * A plot of latency by percentile, one line per peer.
     *
     * @param title the plot's title.
     * @param lines the lines.
     */
    public record Plot(String title, List<PercentilePlot.Line> lines)
    {
    }

    /**
     * A further table after the main one, with its heading, in the terminal as in the file.
     *
     * @param heading what it shows.
     * @param table   the table.
     */
    public record Titled(String heading, Table table)
    {
    }

    /**
     * A plot of values over time, in stacked panels.
     *
     * @param alt    what the Markdown's image says it is.
     * @param panels the panels.
     */
    public record TimePlot(String alt, List<TimeSeriesPlot.Panel> panels)
    {
    }

    private Report(final String name, final Result result, final Table table)
    {
        this.name = name;
        this.result = result;
        this.table = table;
    }

    /**
     * A report.
     *
     * @param name   names the files: {@code latest-NAME.json} and {@code NAME-STAMP.json}, and the same in
     *               Markdown and PNG.
     * @param result what goes to JSON.
     * @param table  the results side by side.
     * @return the report, to fill further.
     */
    public static Report of(final String name, final Result result, final Table table)
    {
        return new Report(name, result, table);
    }

    /**
     * Sets the Markdown title.
     *
     * @param title the first heading.
     * @return this.
     */
    public Report title(final String title)
    {
        this.title = title;
        return this;
    }

    /**
     * Sets the opening sentences; when and how long are added after them.
     *
     * @param intro what was run.
     * @return this.
     */
    public Report intro(final String intro)
    {
        this.intro = intro;
        return this;
    }

    /**
     * Adds a fact to the list after the JDK and OS.
     *
     * @param label such as {@code Pinning}.
     * @param value its value.
     * @return this.
     */
    public Report fact(final String label, final String value)
    {
        facts.add(label + ": " + value);
        return this;
    }

    /**
     * Adds where the two sides ran and the options added to the child JVMs.
     *
     * @param label     such as {@code Pinning}.
     * @param placement where the sides ran.
     * @param launcher  what started them.
     * @return this.
     */
    public Report placement(final String label, final String placement, final PeerLauncher launcher)
    {
        return fact(label, placement).fact("Extra JVM options", launcher.describeExtraOptions());
    }

    /**
     * Sets what the table's columns mean.
     *
     * @param legend a paragraph, before the table.
     * @return this.
     */
    public Report legend(final String legend)
    {
        this.legend = legend;
        return this;
    }

    /**
     * Sets lines shown after the table, in the terminal and as a section of the file.
     *
     * @param notes lines, each ending with a newline.
     * @return this.
     */
    public Report notes(final String notes)
    {
        this.notes = notes;
        return this;
    }

    /**
     * Adds a section after the table.
     *
     * @param heading its heading.
     * @param body    its Markdown.
     * @return this.
     */
    public Report section(final String heading, final String body)
    {
        sections.add(new Section(heading, body));
        return this;
    }

    /**
     * Sets the plot, written as PNG beside the other files.
     *
     * @param title the plot's title.
     * @param lines one line per peer.
     * @return this.
     */
    public Report plot(final String title, final List<PercentilePlot.Line> lines)
    {
        this.plot = new Plot(title, List.copyOf(lines));
        return this;
    }

    /**
     * Sets a line chart, written as PNG beside the other files, for a report without a percentile plot.
     *
     * @param chart the chart.
     * @return this.
     */
    public Report chart(final LinePlot.Chart chart)
    {
        this.chart = chart;
        return this;
    }

    /**
     * Adds a line chart below the one set with {@link #chart(LinePlot.Chart)}, in the same PNG.
     *
     * @param below the chart.
     * @return this.
     */
    public Report chartBelow(final LinePlot.Chart below)
    {
        // A chart without a line (no side told its figure) would only be an empty frame.
        if (!below.series().isEmpty())
        {
            chartsBelow.add(below);
        }
        return this;
    }

    /** @return the line chart and those below it, top first; empty without a line chart. */
    public List<LinePlot.Chart> charts()
    {
        final List<LinePlot.Chart> all = new ArrayList<>();
        if (chart != null)
        {
            all.add(chart);
            all.addAll(chartsBelow);
        }
        return all;
    }

    /**
     * Sets a plot over time instead of a percentile plot, written as PNG beside the other files.
     *
     * @param alt    what the image shows, in a few words.
     * @param panels the panels, top to bottom.
     * @return this.
     */
    public Report timePlot(final String alt, final List<TimeSeriesPlot.Panel> panels)
    {
        this.timePlot = new TimePlot(alt, List.copyOf(panels));
        return this;
    }

    /**
     * Sets a bar chart instead of a plot, written as PNG beside the other files.
     *
     * @param chart the chart.
     * @return this.
     */
    public Report bars(final BarPlot.Chart chart)
    {
        this.bars = chart;
        return this;
    }

    /**
     * Adds a table after the main one, shown with its heading in the terminal and in the file.
     *
     * @param heading what it shows.
     * @param table   the table.
     * @return this.
     */
    public Report table(final String heading, final Table table)
    {
        tables.add(new Titled(heading, table));
        return this;
    }

    /** @return the tables after the main one, in order. */
    public List<Titled> tables()
    {
        return List.copyOf(tables);
    }

    /** @return the bar chart, or null. */
    public BarPlot.Chart bars()
    {
        return bars;
    }

    /** @return the plot over time, or null. */
    public TimePlot timePlot()
    {
        return timePlot;
    }

    /** @return what names the files. */
    public String name()
    {
        return name;
    }

    /** @return what goes to JSON. */
    public Result result()
    {
        return result;
    }

    /** @return the results side by side. */
    public Table table()
    {
        return table;
    }

    /** @return the Markdown title. */
    public String title()
    {
        return title;
    }

    /** @return the opening sentences. */
    public String intro()
    {
        return intro;
    }

    /** @return the facts after the JDK and OS, each {@code label: value}. */
    public List<String> facts()
    {
        return List.copyOf(facts);
    }

    /** @return what the table's columns mean, or null. */
    public String legend()
    {
        return legend;
    }

    /** @return the lines after the table, or null. */
    public String notes()
    {
        return notes;
    }

    /** @return the sections after the table. */
    public List<Section> sections()
    {
        return List.copyOf(sections);
    }

    /** @return the plot, or null. */
    public Plot plot()
    {
        return plot;
    }

    /** @return the line chart, or null. */
    public LinePlot.Chart chart()
    {
        return chart;
    }

    /** @return whether a PNG goes with the report. */
    public boolean hasPicture()
    {
        return plot != null || chart != null || timePlot != null || bars != null;
    }

    /** @return the PNG's title, or null without one. */
    public String pictureTitle()
    {
        return plot != null ? plot.title() : chart != null ? chart.title() : timePlot != null ? timePlot.alt()
            : bars != null ? bars.title() : null;
    }

    /** @return what failed; empty when nothing did or the benchmark keeps no such list. */
    public List<String> failures()
    {
        return result.failures() == null ? List.of() : result.failures();
    }
}
