package io.celer.bench.harness;

import java.util.ArrayList;
import java.util.List;

import picocli.CommandLine.Option;

/**
 * The {@code --jvm-opts} option, for benchmarks that start JVMs.
 */
public final class JvmOptions
{
    @Option(names = "--jvm-opts", paramLabel = "\"OPTS\"", description = "Extra options for every child JVM, "
        + "space-separated, e.g. \"-Xmx1g -XX:+UseParallelGC\".")
    private String jvmOptions;

    /**
     * The options as a list.
     *
     * @return the options, maybe empty.
     */
    public List<String> list()
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
}
