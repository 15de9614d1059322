package io.celer.bench.harness;

import java.awt.Color;
import java.util.Arrays;

import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.CategoryStyler;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.XYStyler;

/**
 * The look the benchmarks' charts share: white, light grid lines, one palette; each chart adds its own axes.
 */
final class ChartStyle
{
    /** Eight colours for the peers, two more for the time series' panels. */
    private static final Color[] COLORS = {
        new Color(0xD62728), new Color(0x1F77B4), new Color(0x2CA02C), new Color(0x9467BD),
        new Color(0xFF7F0E), new Color(0x555555), new Color(0x8C564B), new Color(0xE377C2),
        new Color(0x17BECF), new Color(0xBCBD22)};

    static
    {
        // The charts are drawn off screen; this also works where no display exists.
        System.setProperty("java.awt.headless", "true");
    }

    private ChartStyle()
    {
    }

    /**
     * A new, empty chart in the shared look.
     *
     * @param height the height in pixels; every chart is 1100 wide.
     * @param title  the title.
     * @param xTitle the x axis' title.
     * @param yTitle the y axis' title.
     * @param legend where the legend goes.
     * @param colors how many of the palette's colours the series cycle through, at most 10.
     * @return the chart.
     */
    static XYChart chart(final int height, final String title, final String xTitle, final String yTitle,
        final Styler.LegendPosition legend, final int colors)
    {
        final XYChart chart = new XYChartBuilder().width(1100).height(height).title(title)
            .xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        final XYStyler styler = chart.getStyler();
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setPlotBackgroundColor(Color.WHITE);
        styler.setLegendPosition(legend);
        styler.setSeriesColors(Arrays.copyOf(COLORS, colors));
        styler.setPlotGridLinesColor(new Color(0xDDDDDD));
        return chart;
    }

    /**
     * A new, empty bar chart in the shared look, the series side by side in each category.
     *
     * @param height the height in pixels; every chart is 1100 wide.
     * @param title  the title.
     * @param xTitle the categories' axis title.
     * @param yTitle the values' axis title.
     * @return the chart.
     */
    static CategoryChart bars(final int height, final String title, final String xTitle, final String yTitle)
    {
        final CategoryChart chart = new CategoryChartBuilder().width(1100).height(height).title(title)
            .xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        final CategoryStyler styler = chart.getStyler();
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setPlotBackgroundColor(Color.WHITE);
        styler.setLegendPosition(Styler.LegendPosition.OutsideE);
        styler.setSeriesColors(COLORS);
        styler.setPlotGridLinesColor(new Color(0xDDDDDD));
        return chart;
    }
}
