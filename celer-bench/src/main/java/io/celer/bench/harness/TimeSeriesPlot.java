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
 * Draws values over a run's time, one panel per quantity (throughput, memory...), stacked in one PNG, one line
 * per run in each.
 */
public final class TimeSeriesPlot
{
    private TimeSeriesPlot()
    {
    }

    /**
     * One line: values at times.
     *
     * @param name    its legend.
     * @param seconds the times, seconds from the start of the measure.
     * @param values  a value at each time.
     */
    public record Series(String name, List<Double> seconds, List<Double> values)
    {
    }

    /**
     * One panel: a quantity and its lines.
     *
     * @param title  the panel's title.
     * @param yTitle the quantity and its unit.
     * @param series its lines.
     */
    public record Panel(String title, String yTitle, List<Series> series)
    {
    }

    /**
     * Writes the panels, one above the other, as a PNG.
     *
     * @param file   the file, ending in {@code .png}.
     * @param panels the panels.
     */
    public static void write(final Path file, final List<Panel> panels)
    {
        final List<XYChart> charts = new ArrayList<>();
        for (final Panel panel : panels)
        {
            final XYChart chart = ChartStyle.chart(450, panel.title(), "seconds", panel.yTitle(),
                Styler.LegendPosition.OutsideE, 10);
            chart.getStyler().setYAxisDecimalPattern("#,##0.#");
            for (final Series line : panel.series())
            {
                if (line.seconds().isEmpty())
                {
                    continue;
                }
                final XYSeries series = chart.addSeries(line.name(), line.seconds(), line.values());
                series.setMarker(SeriesMarkers.NONE);
                series.setLineStyle(new BasicStroke(2f));
            }
            charts.add(chart);
        }
        try
        {
            BitmapEncoder.saveBitmap(charts, charts.size(), 1, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + file, ex);
        }
    }
}
