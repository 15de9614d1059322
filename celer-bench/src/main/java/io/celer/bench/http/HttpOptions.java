package io.celer.bench.http;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import io.celer.bench.harness.CpuPlan;
import io.celer.bench.harness.JvmOptions;
import io.celer.bench.harness.OutputDirectory;
import io.celer.bench.harness.PeerLauncher;
import io.celer.bench.harness.ServerReactors;
import io.celer.bench.harness.UsageErrors;

/**
 * What {@code bench http} and {@code bench http-paper} share: a quick mode, rounds, pinning, the server's reactors,
 * child JVM options and the results directory, as a picocli mixin.
 */
public final class HttpOptions
{
    @Option(names = "--quick", description = "A short run for a demo: fewer settings, shorter runs.")
    private boolean quick;

    @Option(names = "--rounds", paramLabel = "R", defaultValue = "1", description = "Runs per server, taking turns "
        + "with the other servers; the median per setting is reported (default: ${DEFAULT-VALUE}).")
    private int rounds;

    @Option(names = "--no-pin", description = "Do not pin the server and the load to CPUs.")
    private boolean noPin;

    @Mixin
    private ServerReactors serverReactors;

    @Mixin
    private JvmOptions jvmOptions;

    @Mixin
    private OutputDirectory out;

    @Spec(Spec.Target.MIXEE)
    private CommandSpec command;

    /**
     * Builds the run's settings from the options, a bad option being a usage error of the command.
     *
     * @param settings builds the settings, throwing {@link IllegalArgumentException} for a bad option.
     * @param <T>      the settings' type.
     * @return the settings.
     * @throws ParameterException with the check's message if an option is bad.
     */
    public <T> T settings(final Supplier<T> settings)
    {
        return UsageErrors.settings(command, settings);
    }

    /**
     * A value given on the command line, or the benchmark's default for a quick or a full run.
     *
     * @param given what the option said, or null.
     * @param quick the default with {@code --quick}.
     * @param full  the default without.
     * @param <T>   the value's type.
     * @return the value.
     */
    public <T> T pick(final T given, final T quick, final T full)
    {
        return given != null ? given : this.quick ? quick : full;
    }

    /** @return runs per server. */
    public int rounds()
    {
        if (rounds < 1)
        {
            throw new IllegalArgumentException("--rounds must be positive: " + rounds);
        }
        return rounds;
    }

    /** @return where result files go. */
    public Path outDir()
    {
        return out.path();
    }

    /**
     * A launcher for the children, placed as asked, the server on a CPU per reactor.
     *
     * @return the launcher.
     * @throws IllegalArgumentException if {@code --server-reactors} is out of range.
     */
    public PeerLauncher launcher()
    {
        return new PeerLauncher(CpuPlan.detect(!noPin, serverReactors.count()), jvmOptions.list(), false);
    }

    /**
     * Parses a comma-separated list of positive counts.
     *
     * @param list   such as {@code 1,10,100}.
     * @param option the option's name, for the message.
     * @return the counts, in the order given.
     * @throws IllegalArgumentException on a count that is not a positive integer.
     */
    public static List<Integer> counts(final String list, final String option)
    {
        final List<Integer> counts = new ArrayList<>();
        for (final String item : list.split(","))
        {
            final String trimmed = item.trim().replace("_", "");
            if (trimmed.isEmpty())
            {
                continue;
            }
            final int count;
            try
            {
                count = Integer.parseInt(trimmed);
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException(option + " takes positive integers: '" + item + "'");
            }
            if (count < 1)
            {
                throw new IllegalArgumentException(option + " takes positive integers: " + count);
            }
            counts.add(count);
        }
        if (counts.isEmpty())
        {
            throw new IllegalArgumentException(option + " names no count");
        }
        return List.copyOf(counts);
    }
}
