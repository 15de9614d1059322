package io.celer.bench.harness;

import java.nio.file.Path;

import picocli.CommandLine.Option;

/**
 * The {@code --out} option every benchmark takes.
 */
public final class OutputDirectory
{
    @Option(names = "--out", paramLabel = "DIR", description = "Directory for result files "
        + "(default: ${DEFAULT-VALUE}).", defaultValue = "bench-results")
    private Path outDir;

    /** @return where result files go. */
    public Path path()
    {
        return outDir;
    }
}
