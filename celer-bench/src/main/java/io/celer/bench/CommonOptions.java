package io.celer.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import picocli.CommandLine.Option;

/**
 * Options every benchmark takes.
 */
final class CommonOptions
{
    @Option(names = "--size", paramLabel = "BYTES", description = "Message size in bytes (default: 256; 27 "
        + "for batching).")
    Integer size;

    @Option(names = "--rounds", paramLabel = "R", description = "Runs per peer, taking turns with the other "
        + "peers; the median round is reported (default: 3, 1 with --quick).")
    Integer rounds;

    @Option(names = "--quick", description = "A short run for a demo: fewer messages, 1 round.")
    boolean quick;

    @Option(names = "--jvm-opts", paramLabel = "\"OPTS\"", description = "Extra options for every child JVM, "
        + "space-separated, e.g. \"-Xmx1g -XX:+UseParallelGC\".")
    String jvmOptions;

    @Option(names = "--epsilon", description = "Run the Celer peer's JVMs under the Epsilon no-op collector "
        + "(-XX:+UseEpsilonGC -Xmx256m): they complete only if they make (almost) no garbage.")
    boolean epsilon;

    @Option(names = "--no-pin", description = "Do not pin the server and client to CPUs.")
    boolean noPin;

    @Option(names = "--out", paramLabel = "DIR", description = "Directory for result files "
        + "(default: ${DEFAULT-VALUE}).", defaultValue = "bench-results")
    Path outDir;

    /**
     * The extra JVM options as a list.
     *
     * @return the options, maybe empty.
     */
    List<String> jvmOptionList()
    {
        final List<String> options = new ArrayList<>();
        if (jvmOptions != null)
        {
            for (final String option : jvmOptions.trim().split("\\s+"))
            {
                if (!option.isEmpty())
                {
                    options.add(option);
                }
            }
        }
        return options;
    }

    /**
     * The message size asked for.
     *
     * @param fallback the benchmark's default.
     * @return bytes.
     */
    int size(final int fallback)
    {
        return size != null ? size : fallback;
    }

    /**
     * Checks what the runs cannot work with.
     *
     * @param messages measured messages.
     * @param warmup   warm-up messages.
     * @param rounds   rounds.
     * @param bytes    the message size.
     * @param smallest the smallest message size the benchmark takes.
     * @param largest  the largest.
     * @throws IllegalArgumentException on a value out of range.
     */
    void validate(final int messages, final int warmup, final int rounds, final int bytes, final int smallest,
        final int largest)
    {
        if (bytes < smallest || bytes > largest)
        {
            throw new IllegalArgumentException("--size must be " + smallest + " to " + largest + " bytes: " + bytes);
        }
        if (messages < 1 || warmup < 0 || rounds < 1)
        {
            throw new IllegalArgumentException("--messages and --rounds must be positive, --warmup not negative");
        }
    }
}
