package io.celer.bench.harness;

import java.awt.BasicStroke;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Draws latency against percentile, one line per peer, on a "nines" axis: 90%, 99%, 99.9% evenly spaced.
 */
public final class PercentilePlot
{
    private PercentilePlot()
    {
    }

    /**
     * One line of the plot.
     *
     * @param name      its legend.
     * @param histogram round trips in nanoseconds.
     */
    public record Line(String name, Histogram histogram)
    {
    }

    /**
     * Writes the plot as a PNG.
     *
     * @param file  the file, ending in {@code .png}.
     * @param title the chart's title.
     * @param lines one per peer.
     */
    public static void write(final Path file, final String title, final List<Line> lines)
    {
        final XYChart chart = ChartStyle.chart(650, title, "percentile", "round trip (microseconds, log scale)",
            Styler.LegendPosition.InsideNW, 8);
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setXAxisTickMarkSpacingHint(60);
        chart.getStyler().setxAxisTickLabelsFormattingFunction(PercentilePlot::nines);
        // A custom formatter would switch off the logarithmic tick placement, a pattern does not.
        chart.getStyler().setYAxisDecimalPattern("#,##0.##");
        double maxNines = 1;
        for (final Line line : lines)
        {
            final List<Double> xs = new ArrayList<>();
            final List<Double> ys = new ArrayList<>();
            final double cap = Math.log10(line.histogram().getTotalCount());
            for (final HistogramIterationValue point : line.histogram().percentiles(5))
            {
                final double fraction = point.getPercentileLevelIteratedTo() / 100.0;
                xs.add(fraction >= 1.0 ? cap : Math.min(cap, -Math.log10(1.0 - fraction)));
                ys.add(Math.max(0.001, point.getValueIteratedTo() / 1000.0));
            }
            maxNines = Math.max(maxNines, cap);
            final String legend = String.format(Locale.ROOT, "%s  (p50 %s, p99 %s)", line.name(),
                micros(line.histogram().getValueAtPercentile(50) / 1000.0),
                micros(line.histogram().getValueAtPercentile(99) / 1000.0));
            final XYSeries series = chart.addSeries(legend, xs, ys);
            series.setMarker(SeriesMarkers.NONE);
            series.setLineStyle(new BasicStroke(2.2f));
        }
        chart.getStyler().setXAxisMin(0.0);
        chart.getStyler().setXAxisMax(Math.ceil(maxNines));
        try
        {
            BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + file, ex);
        }
    }

    private static String nines(final Double x)
    {
        final double rounded = Math.rint(x);
        if (Math.abs(x - rounded) > 1e-6 || rounded < 0)
        {
            return "";
        }
        final int nines = (int)rounded;
        if (nines == 0)
        {
            return "0%";
        }
        // 1 -> 90%, 2 -> 99%, 3 -> 99.9%, ...
        if (nines == 1)
        {
            return "90%";
        }
        return nines == 2 ? "99%" : "99." + "9".repeat(nines - 2) + "%";
    }

    private static String micros(final Double value)
    {
        if (value >= 100)
        {
            return String.format(Locale.ROOT, "%,.0f", value);
        }
        return value >= 10 ? String.format(Locale.ROOT, "%.1f", value) : String.format(Locale.ROOT, "%.2f", value);
    }
}
