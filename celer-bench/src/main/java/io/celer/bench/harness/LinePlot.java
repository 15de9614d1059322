package io.celer.bench.harness;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Draws a measure against a setting, one line per peer, such as requests per second against concurrent clients.
 */
public final class LinePlot
{
    private static final Color[] COLORS = {
        new Color(0xD62728), new Color(0x1F77B4), new Color(0x2CA02C), new Color(0x9467BD),
        new Color(0xFF7F0E), new Color(0x555555), new Color(0x8C564B), new Color(0xE377C2)};

    static
    {
        // The chart is drawn off screen; this also works where no display exists.
        System.setProperty("java.awt.headless", "true");
    }

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
        final XYChart xy = new XYChartBuilder().width(1100).height(650).title(chart.title())
            .xAxisTitle(chart.xTitle()).yAxisTitle(chart.yTitle()).build();
        final Styler styler = xy.getStyler();
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setPlotBackgroundColor(Color.WHITE);
        styler.setLegendPosition(Styler.LegendPosition.OutsideE);
        styler.setSeriesColors(COLORS);
        xy.getStyler().setPlotGridLinesColor(new Color(0xDDDDDD));
        xy.getStyler().setXAxisLogarithmic(chart.logX());
        xy.getStyler().setXAxisDecimalPattern("#,##0");
        xy.getStyler().setYAxisDecimalPattern("#,##0");
        xy.getStyler().setYAxisMin(0.0);
        for (final Series series : chart.series())
        {
            final XYSeries line = xy.addSeries(series.name(), series.xs(), series.ys());
            line.setMarker(SeriesMarkers.CIRCLE);
            line.setLineStyle(new BasicStroke(2.2f));
        }
        try
        {
            BitmapEncoder.saveBitmap(xy, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + file, ex);
        }
    }
}
