package io.celer.bench.harness;

import java.util.ArrayList;
import java.util.List;

/**
 * How a server's work spread over its reactors or event loops, from the per-loop figures of its stats line
 * ({@code loop_messages=120,98}): each loop's share in percent.
 */
public final class LoopShares
{
    private LoopShares()
    {
    }

    /**
     * The loops a server reported.
     *
     * @param stats its stats line.
     * @return the count, or null where it has none (a pool of threads).
     */
    public static Integer loops(final SideStats stats)
    {
        final Long loops = stats.number("loops");
        return loops == null ? null : loops.intValue();
    }

    /**
     * Each loop's share of one of its figures.
     *
     * @param stats its stats line.
     * @param name  the figure, such as {@code messages} for {@code loop_messages}.
     * @return percentages in the loops' order, or null where it has no such figure or they are all zero.
     */
    public static List<Double> percent(final SideStats stats, final String name)
    {
        final String listed = stats.values().get("loop_" + name);
        if (listed == null)
        {
            return null;
        }
        final List<Long> each = new ArrayList<>();
        long total = 0;
        for (final String item : listed.split(","))
        {
            final long value = Long.parseLong(item);
            each.add(value);
            total += value;
        }
        if (total <= 0)
        {
            return null;
        }
        final List<Double> shares = new ArrayList<>();
        for (final long value : each)
        {
            shares.add(Math.round(1000.0 * value / total) / 10.0);
        }
        return List.copyOf(shares);
    }

    /**
     * Shares as a table shows them.
     *
     * @param shares percentages, or null.
     * @return such as {@code 52/48}, or n/a.
     */
    public static String cell(final List<Double> shares)
    {
        if (shares == null)
        {
            return Cells.NOT_AVAILABLE;
        }
        final StringBuilder cell = new StringBuilder();
        for (final double share : shares)
        {
            cell.append(cell.length() == 0 ? "" : "/").append(Cells.format("%.0f", share));
        }
        return cell.toString();
    }
}
