package io.celer.examples.cli;

import java.util.Arrays;

import picocli.CommandLine.Option;

/**
 * How many reactors a server demo runs on, and the CPUs they are pinned to: a picocli mixin of the demos that
 * serve from every core ({@code @Mixin ReactorOptions reactors;}).
 */
public final class ReactorOptions
{
    /** One reactor, placed by {@code --cpu} or the scheduler: what the other demos run on. */
    static final ReactorOptions ONE = new ReactorOptions();

    @Option(names = "--reactors", paramLabel = "N", defaultValue = "1",
        description = "Serve from N reactor threads, spreading the clients (default ${DEFAULT-VALUE}).")
    private int count = 1;

    @Option(names = "--cpus", paramLabel = "LIST", split = ",",
        description = "Pin the reactors to these CPUs, one per reactor in order, e.g. 2,3 (default: left to " +
            "the scheduler).")
    private int[] cpus = {};

    /**
     * The number of reactors.
     *
     * @return at least 1, once checked.
     */
    int count()
    {
        return count;
    }

    /**
     * The CPU of each reactor, checked.
     *
     * @param name the demo, for messages.
     * @param cpu  the {@code --cpu} option: the one reactor's CPU, or -1.
     * @return one entry per reactor: a CPU, or -1 for the scheduler's choice.
     * @throws UsageException if the options do not go together.
     */
    int[] cpus(final String name, final int cpu)
    {
        if (count < 1)
        {
            throw new UsageException("--reactors must be 1 or more for " + name + ": " + count);
        }
        if (cpus.length == 0)
        {
            if (cpu != -1 && count > 1)
            {
                throw new UsageException("--cpu pins one reactor; give --cpus with one CPU per reactor for " +
                    count + " reactors");
            }
            final int[] each = new int[count];
            Arrays.fill(each, cpu);
            return each;
        }
        if (cpu != -1)
        {
            throw new UsageException("give --cpu or --cpus, not both");
        }
        if (cpus.length != count)
        {
            throw new UsageException("--cpus must list one CPU per reactor: " + count + " reactors, CPUs " +
                Arrays.toString(cpus));
        }
        for (final int each : cpus)
        {
            if (each < 0)
            {
                throw new UsageException("--cpus must list CPU numbers, 0 or more: " + each);
            }
        }
        return cpus.clone();
    }
}
