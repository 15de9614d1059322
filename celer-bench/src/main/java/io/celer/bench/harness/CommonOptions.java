package io.celer.bench.harness;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Options every benchmark of peers in two processes takes, as a picocli mixin.
 */
public final class CommonOptions
{
    @Option(names = "--size", paramLabel = "BYTES", description = "Message size in bytes (default: 256; 27 "
        + "for batching).")
    private Integer size;

    @Option(names = "--rounds", paramLabel = "R", description = "Runs per peer, taking turns with the other "
        + "peers; the median round is reported (default: 3, 1 with --quick).")
    private Integer rounds;

    @Option(names = "--quick", description = "A short run for a demo: fewer messages, 1 round.")
    private boolean quick;

    @Mixin
    private JvmOptions jvmOptions;

    @Option(names = "--epsilon", description = "Run the Celer peer's JVMs under the Epsilon no-op collector "
        + "(-XX:+UseEpsilonGC -Xmx256m): they complete only if they make (almost) no garbage.")
    private boolean epsilon;

    @Option(names = "--no-pin", description = "Do not pin the server and client to CPUs.")
    private boolean noPin;

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
     * A count given on the command line, or the benchmark's default for a quick or a full run.
     *
     * @param given what the option said, or null.
     * @param quick the default with {@code --quick}.
     * @param full  the default without.
     * @return the count.
     */
    public int pick(final Integer given, final int quick, final int full)
    {
        return given != null ? given : this.quick ? quick : full;
    }

    /** @return runs per peer: {@code --rounds}, else 1 with {@code --quick}, else 3. */
    public int rounds()
    {
        return pick(rounds, 1, 3);
    }

    /**
     * The message size asked for.
     *
     * @param fallback the benchmark's default.
     * @return bytes.
     */
    public int size(final int fallback)
    {
        return size != null ? size : fallback;
    }

    /** @return the extra JVM options, maybe empty. */
    public List<String> jvmOptions()
    {
        return jvmOptions.list();
    }

    /** @return whether Celer's JVMs run under Epsilon. */
    public boolean epsilon()
    {
        return epsilon;
    }

    /** @return whether to pin the two sides when the machine allows. */
    public boolean pin()
    {
        return !noPin;
    }

    /** @return where result files go. */
    public Path outDir()
    {
        return out.path();
    }

    /**
     * A launcher for the children, placed as asked.
     *
     * @return the launcher.
     */
    public PeerLauncher launcher()
    {
        return launcher(1);
    }

    /**
     * A launcher for the children, placed as asked, the server on a CPU per reactor.
     *
     * @param serverReactors the server's reactors or event loops, from 1 to {@link CpuPlan#available()}.
     * @return the launcher.
     */
    public PeerLauncher launcher(final int serverReactors)
    {
        return new PeerLauncher(CpuPlan.detect(pin(), serverReactors), jvmOptions(), epsilon);
    }

    /**
     * Checks what the runs cannot work with.
     *
     * @param messages measured messages.
     * @param warmup   warm-up messages.
     * @param bytes    the message size.
     * @param smallest the smallest message size the benchmark takes.
     * @param largest  the largest.
     * @throws IllegalArgumentException on a value out of range.
     */
    public void validate(final int messages, final int warmup, final int bytes, final int smallest,
        final int largest)
    {
        if (bytes < smallest || bytes > largest)
        {
            throw new IllegalArgumentException("--size must be " + smallest + " to " + largest + " bytes: " + bytes);
        }
        if (messages < 1 || warmup < 0 || rounds() < 1)
        {
            throw new IllegalArgumentException("--messages and --rounds must be positive, --warmup not negative");
        }
    }
}
