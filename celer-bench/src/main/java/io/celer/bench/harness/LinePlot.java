package io.celer.bench.harness;

import java.awt.BasicStroke;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Draws a measure against a setting, one line per peer, such as requests per second against concurrent clients.
 */
public final class LinePlot
{
    private LinePlot()
    {
    }

    /**
     * One line: a peer's points.
     *
     * @param name its legend.
     * @param xs   the settings.
     * @param ys   the measures, one per setting.
     */
    public record Series(String name, List<Double> xs, List<Double> ys)
    {
    }

    /**
     * A chart.
     *
     * @param title  its title.
     * @param xTitle the horizontal axis's title.
     * @param yTitle the vertical axis's title.
     * @param logX   whether the horizontal axis is logarithmic (settings such as 1, 10, 100, 1,000).
     * @param series the lines.
     */
    public record Chart(String title, String xTitle, String yTitle, boolean logX, List<Series> series)
    {
        /**
         * A chart.
         *
         * @param title  its title.
         * @param xTitle the horizontal axis's title.
         * @param yTitle the vertical axis's title.
         * @param logX   whether the horizontal axis is logarithmic.
         * @param series the lines.
         */
        public Chart
        {
            series = List.copyOf(series);
        }
    }

    /**
     * Writes a chart as a PNG.
     *
     * @param file  the file, ending in {@code .png}.
     * @param chart what to draw.
     */
    public static void write(final Path file, final Chart chart)
    {
        write(file, List.of(chart));
    }

    /**
     * Writes charts one above the other as a PNG, such as a rate and, below it, a cost per request.
     *
     * @param file   the file, ending in {@code .png}.
     * @param charts what to draw, top first; at least one.
     */
    public static void write(final Path file, final List<Chart> charts)
    {
        final List<XYChart> drawn = new ArrayList<>();
        for (final Chart chart : charts)
        {
            drawn.add(draw(chart));
        }
        try
        {
            BitmapEncoder.saveBitmap(drawn, drawn.size(), 1, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + file, ex);
        }
    }

    private static XYChart draw(final Chart chart)
    {
        final XYChart xy = ChartStyle.chart(650, chart.title(), chart.xTitle(), chart.yTitle(),
            Styler.LegendPosition.OutsideE, 8);
        xy.getStyler().setXAxisLogarithmic(chart.logX());
        xy.getStyler().setXAxisDecimalPattern("#,##0");
        xy.getStyler().setYAxisDecimalPattern("#,##0.#");
        xy.getStyler().setYAxisMin(0.0);
        for (final Series series : chart.series())
        {
            final XYSeries line = xy.addSeries(series.name(), series.xs(), series.ys());
            line.setMarker(SeriesMarkers.CIRCLE);
            line.setLineStyle(new BasicStroke(2.2f));
        }
        return xy;
    }
}
