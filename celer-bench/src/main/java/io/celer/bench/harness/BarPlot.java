package io.celer.bench.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;

/**
 * Draws a measure per peer as bars, one colour per series, such as bytes per connection for each server in each
 * scenario.
 */
public final class BarPlot
{
    private BarPlot()
    {
    }

    /**
     * One series: a value per category.
     *
     * @param name   its legend.
     * @param values one per category, in the chart's order; null where it was not measured.
     */
    public record Series(String name, List<Double> values)
    {
    }

    /**
     * A chart.
     *
     * @param title      its title.
     * @param xTitle     the categories' axis title.
     * @param yTitle     the values' axis title.
     * @param categories the groups of bars, such as the servers.
     * @param series     the bars of each group.
     */
    public record Chart(String title, String xTitle, String yTitle, List<String> categories, List<Series> series)
    {
        /**
         * A chart.
         *
         * @param title      its title.
         * @param xTitle     the categories' axis title.
         * @param yTitle     the values' axis title.
         * @param categories the groups of bars.
         * @param series     the bars of each group.
         */
        public Chart
        {
            categories = List.copyOf(categories);
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
        final CategoryChart bars = ChartStyle.bars(600, chart.title(), chart.xTitle(), chart.yTitle());
        bars.getStyler().setYAxisDecimalPattern("#,##0");
        bars.getStyler().setYAxisMin(0.0);
        bars.getStyler().setLabelsVisible(true);
        for (final Series series : chart.series())
        {
            // xchart leaves a gap for a null value: an unmeasured bar is absent, not zero.
            bars.addSeries(series.name(), chart.categories(), series.values());
        }
        try
        {
            BitmapEncoder.saveBitmap(bars, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + file, ex);
        }
    }
}
