package io.celer.bench.http;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.LongConsumer;

import com.fasterxml.jackson.annotation.JsonProperty;

import io.celer.bench.harness.Cells;
import io.celer.bench.harness.CommandedChild;
import io.celer.bench.harness.LinePlot;
import io.celer.bench.harness.Peer;
import io.celer.bench.harness.Report;
import io.celer.bench.harness.Rounds;
import io.celer.bench.harness.Table;

/**
 * What both HTTP benchmarks do: for each server, in rounds, start it alone on its CPU and load it at each setting
 * (concurrent clients, connections), marking the server's measured phase with {@code begin} and reading its
 * {@code stats} after; then the median per setting, one table and one chart of the rate.
 */
public final class Sweep
{
    private Sweep()
    {
    }

    /**
     * A measured setting of one server.
     */
    public interface Point
    {
        /** @return the setting, such as 16 concurrent clients. */
        int setting();

        /** @return requests per second. */
        double rate();

        /** @return the server's {@code java.runtime.version}, from its stats. */
        String serverJdk();

        /** @return the server's CPU time per request answered, in microseconds, or null if not told. */
        Double serverCpuPerRequest();
    }

    /**
     * Loads a running server at one setting.
     *
     * @param <T> what one setting gives.
     */
    @FunctionalInterface
    interface Load<T extends Point>
    {
        /**
         * Runs the load; the server has been told {@code begin} for loads without a warm-up of their own.
         *
         * @param peer     the server.
         * @param server   its process, to tell {@code begin} and ask {@code stats}.
         * @param port     where it listens.
         * @param setting  the setting.
         * @param progress takes the units done within this setting, for the bar.
         * @return the point.
         */
        T run(HttpPeer peer, CommandedChild server, int port, int setting, LongConsumer progress);
    }

    /**
     * A server's entry in the results: its median point per setting, and every round's rate beside it.
     *
     * @param peer        the server's name.
     * @param description what it is.
     * @param jdk         the JDK it ran on.
     * @param points      one per setting, in the settings' order.
     * @param roundRates  per setting, the rate of each completed round in the order they ran: the spread the
     *                    median hides, such as a round that fell in the machine's slower level.
     * @param <T>         the point type.
     */
    public record Entry<T extends Point>(String peer, String description, String jdk, List<T> points,
        @JsonProperty("round_rates") List<List<Double>> roundRates)
    {
    }

    /**
     * Runs every server in every round.
     *
     * @param servers  starts the servers.
     * @param peers    the servers that can run here.
     * @param settings the settings, in order.
     * @param rounds   runs per server.
     * @param units    progress units of one setting.
     * @param err      where the bar goes.
     * @param load     loads one setting.
     * @param <T>      what one setting gives.
     * @return every round's points, per server.
     */
    static <T extends Point> Rounds<HttpPeer, List<T>> run(final ServerSide servers, final List<HttpPeer> peers,
        final List<Integer> settings, final int rounds, final long units, final PrintStream err, final Load<T> load)
    {
        return Rounds.run(peers, rounds, HttpPeer::id, units * settings.size(), err, (peer, round, progress) ->
        {
            final List<T> points = new ArrayList<>();
            try (CommandedChild server = servers.start(peer, Collections.max(settings)))
            {
                final int port = server.awaitPort();
                long done = 0;
                for (final int setting : settings)
                {
                    final long before = done;
                    points.add(load.run(peer, server, port, setting, share -> progress.update(before + share)));
                    done += units;
                    progress.update(done);
                }
            }
            return points;
        });
    }

    /**
     * A server's entry: per setting, the round with the median rate.
     *
     * @param peer    the server.
     * @param all     its completed rounds.
     * @param <T>     the point type.
     * @return the entry.
     */
    public static <T extends Point> Entry<T> entry(final Peer peer, final List<List<T>> all)
    {
        final List<T> medians = new ArrayList<>();
        final List<List<Double>> rates = new ArrayList<>();
        for (int i = 0; i < all.get(0).size(); i++)
        {
            final List<T> same = new ArrayList<>();
            final List<Double> inOrder = new ArrayList<>();
            for (final List<T> round : all)
            {
                same.add(round.get(i));
                inOrder.add(round.get(i).rate());
            }
            same.sort(Comparator.comparingDouble(Point::rate));
            medians.add(same.get((same.size() - 1) / 2));
            rates.add(List.copyOf(inOrder));
        }
        return new Entry<>(peer.id(), peer.description(), medians.get(0).serverJdk(), List.copyOf(medians),
            List.copyOf(rates));
    }

    /**
     * Every round's rate, for runs of more than one round: a row per setting, a column per server, the rounds in
     * the order they ran.
     *
     * @param label    the settings' column title.
     * @param settings the settings.
     * @param entries  one per server.
     * @return the table.
     */
    public static Table roundRates(final String label, final List<Integer> settings,
        final List<? extends Entry<?>> entries)
    {
        return bySetting(label, settings, entries, (entry, i) ->
        {
            final List<String> cells = new ArrayList<>();
            for (final double rate : entry.roundRates().get(i))
            {
                cells.add(Cells.format("%,.0f", rate));
            }
            return String.join(" / ", cells);
        });
    }

    /**
     * Adds the table of every round's rate to a report of more than one round.
     *
     * @param report   the report.
     * @param rounds   the rounds run.
     * @param label    the settings' column title.
     * @param settings the settings.
     * @param entries  one per server.
     */
    public static void addRoundRates(final Report report, final int rounds, final String label,
        final List<Integer> settings, final List<? extends Entry<?>> entries)
    {
        if (rounds > 1)
        {
            report.table("Each round's rate, in the order run (the machine may change speed between rounds; the "
                + "tables above show each setting's median round, the lower middle one of an even count)",
                roundRates(label, settings, entries));
        }
    }

    /**
     * The rates side by side: a row per setting, a column per server.
     *
     * @param label    the settings' column title, such as {@code N}.
     * @param settings the settings.
     * @param entries  one per server.
     * @return the table.
     */
    public static Table rates(final String label, final List<Integer> settings, final List<? extends Entry<?>> entries)
    {
        return bySetting(label, settings, entries, (entry, i) -> Cells.format("%,.0f", entry.points().get(i).rate()));
    }

    /**
     * The servers' CPU time per request side by side, in the rates' shape: a row per setting, a column per server.
     *
     * @param label    the settings' column title.
     * @param settings the settings.
     * @param entries  one per server.
     * @return the table, microseconds of user and system time per request (n/a where a server did not tell).
     */
    static Table cpuPerRequest(final String label, final List<Integer> settings,
        final List<? extends Entry<?>> entries)
    {
        return bySetting(label, settings, entries,
            (entry, i) -> Cells.cpuPerMessage(entry.points().get(i).serverCpuPerRequest()));
    }

    private static Table bySetting(final String label, final List<Integer> settings,
        final List<? extends Entry<?>> entries, final BiFunction<Entry<?>, Integer, String> cell)
    {
        final List<String> header = new ArrayList<>(List.of(label));
        for (final Entry<?> entry : entries)
        {
            header.add(entry.peer());
        }
        final List<List<String>> rows = new ArrayList<>();
        for (int i = 0; i < settings.size(); i++)
        {
            final List<String> row = new ArrayList<>(List.of(Cells.format("%,d", settings.get(i))));
            for (final Entry<?> entry : entries)
            {
                row.add(cell.apply(entry, i));
            }
            rows.add(row);
        }
        return new Table(header, rows);
    }

    /**
     * Every server's points, a row each, as the per-server section shows them.
     *
     * @param header  column titles, the server's first.
     * @param entries one per server.
     * @param row     a point's cells, after its server's name.
     * @param <T>     the point type.
     * @return the table.
     */
    public static <T extends Point> Table points(final List<String> header, final List<Entry<T>> entries,
        final Function<? super T, List<String>> row)
    {
        final List<List<String>> rows = new ArrayList<>();
        for (final Entry<T> entry : entries)
        {
            for (final T point : entry.points())
            {
                final List<String> cells = new ArrayList<>(List.of(entry.peer()));
                cells.addAll(row.apply(point));
                rows.add(cells);
            }
        }
        return new Table(header, rows);
    }

    /**
     * The rates as lines, one per server.
     *
     * @param title   the chart's title.
     * @param xTitle  the settings' axis title.
     * @param logX    whether the settings grow by powers (1, 10, 100), drawn on a log axis.
     * @param entries one per server.
     * @return the chart.
     */
    public static LinePlot.Chart chart(final String title, final String xTitle, final boolean logX,
        final List<? extends Entry<?>> entries)
    {
        return new LinePlot.Chart(title, xTitle, "requests per second", logX, lines(entries, Point::rate));
    }

    /**
     * The servers' CPU time per request as lines, one per server with the figure, for the panel below the rates.
     *
     * @param xTitle  the settings' axis title.
     * @param logX    whether the settings grow by powers.
     * @param entries one per server.
     * @return the chart.
     */
    static LinePlot.Chart cpuChart(final String xTitle, final boolean logX, final List<? extends Entry<?>> entries)
    {
        return new LinePlot.Chart("Server CPU time (user + system) per request", xTitle, "CPU us per request",
            logX, lines(entries, Point::serverCpuPerRequest));
    }

    /** One line per server of what it told, a point per setting where it told it. */
    private static List<LinePlot.Series> lines(final List<? extends Entry<?>> entries,
        final Function<Point, Double> measure)
    {
        final List<LinePlot.Series> series = new ArrayList<>();
        for (final Entry<?> entry : entries)
        {
            final List<Double> xs = new ArrayList<>();
            final List<Double> ys = new ArrayList<>();
            for (final Point point : entry.points())
            {
                final Double y = measure.apply(point);
                if (y != null)
                {
                    xs.add((double)point.setting());
                    ys.add(y);
                }
            }
            if (!xs.isEmpty())
            {
                series.add(new LinePlot.Series(entry.peer(), xs, ys));
            }
        }
        return series;
    }
}
