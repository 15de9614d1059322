package io.celer.bench.harness;

import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Runs every contender once a round, for a number of rounds, under one progress bar; a failed run is kept as a
 * failure and the others go on.
 *
 * @param <K> what is compared: a peer, a variant.
 * @param <R> what one run gives.
 */
public final class Rounds<K, R>
{
    /**
     * One run of one contender.
     *
     * @param <K> the contender.
     * @param <R> the result.
     */
    @FunctionalInterface
    public interface Trial<K, R>
    {
        /**
         * Runs it.
         *
         * @param contender what runs.
         * @param round     the round, from 1.
         * @param progress  the bar, for updates during the run.
         * @return the result.
         * @throws BenchException when the run fails.
         */
        R run(K contender, int round, ProgressBar progress);
    }

    private final Map<K, List<R>> results = new LinkedHashMap<>();
    private final List<String> failures = new ArrayList<>();

    private final List<K> contenders;

    private Rounds(final List<K> contenders)
    {
        this.contenders = List.copyOf(contenders);
    }

    /**
     * Runs all rounds. Each round starts one further down the list, so no contender always runs first (on a
     * cold machine) or last, and drift hits them alike.
     *
     * @param contenders  what runs, in the order of the first round.
     * @param rounds      how many rounds.
     * @param id          a contender's name, for the progress bar and failures.
     * @param unitsPerRun progress units one run counts (its messages).
     * @param err         where the progress bar and failures go.
     * @param trial       one run.
     * @param <K>         the contender.
     * @param <R>         the result.
     * @return the results and failures.
     */
    public static <K, R> Rounds<K, R> run(final List<K> contenders, final int rounds, final Function<K, String> id,
        final long unitsPerRun, final PrintStream err, final Trial<K, R> trial)
    {
        final Rounds<K, R> all = new Rounds<>(contenders);
        final int n = contenders.size();
        final ProgressBar progress = new ProgressBar(err, unitsPerRun * rounds * n);
        try
        {
            for (int round = 1; round <= rounds; round++)
            {
                for (int i = 0; i < n; i++)
                {
                    final K contender = contenders.get((i + round - 1) % n);
                    final String name = id.apply(contender);
                    progress.step(String.format("round %d/%d  %s", round, rounds, name));
                    try
                    {
                        // Run first: a contender whose every run failed has no list, as of() says.
                        final R result = trial.run(contender, round, progress);
                        all.results.computeIfAbsent(contender, c -> new ArrayList<>()).add(result);
                    }
                    catch (final BenchException | UncheckedIOException ex)
                    {
                        progress.close();
                        all.failures.add(name + " round " + round + ": " + ex.getMessage());
                        err.println("[bench] " + name + " round " + round + " failed: " + ex.getMessage());
                    }
                    progress.endStep(unitsPerRun);
                }
            }
        }
        finally
        {
            progress.close();
        }
        return all;
    }

    /**
     * A contender's results, one a completed round.
     *
     * @param contender the contender.
     * @return the results, or null when every run of it failed.
     */
    public List<R> of(final K contender)
    {
        return results.get(contender);
    }

    /**
     * The failed runs, one line each.
     *
     * @return the failures.
     */
    public List<String> failures()
    {
        return failures;
    }

    /**
     * One entry per contender that completed a round, in the contenders' order.
     *
     * @param entry makes a contender's entry from its completed rounds.
     * @param <E>   the entry's type.
     * @return the entries.
     */
    public <E> List<E> entries(final Function<List<R>, E> entry)
    {
        return entries((contender, completed) -> entry.apply(completed));
    }

    /**
     * One entry per contender that completed a round, in the contenders' order, for entries that name their
     * contender.
     *
     * @param entry makes a contender's entry from the contender and its completed rounds.
     * @param <E>   the entry's type.
     * @return the entries.
     */
    public <E> List<E> entries(final BiFunction<K, List<R>, E> entry)
    {
        final List<E> entries = new ArrayList<>();
        for (final K contender : contenders)
        {
            final List<R> completed = results.get(contender);
            if (completed != null)
            {
                entries.add(entry.apply(contender, completed));
            }
        }
        return entries;
    }
}
