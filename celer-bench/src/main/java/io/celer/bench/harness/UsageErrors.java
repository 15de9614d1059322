package io.celer.bench.harness;

import java.util.function.Supplier;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * Turns a benchmark command's option checks into usage errors: picocli then prints the message and the usage
 * instead of a stack trace.
 */
public final class UsageErrors
{
    private UsageErrors()
    {
    }

    /**
     * Builds a run's settings from the options.
     *
     * @param spec     the command, for the usage message.
     * @param settings builds the settings, throwing {@link IllegalArgumentException} for a bad option.
     * @param <T>      the settings' type.
     * @return the settings.
     * @throws ParameterException with the check's message if an option is bad.
     */
    public static <T> T settings(final CommandSpec spec, final Supplier<T> settings)
    {
        try
        {
            return settings.get();
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ParameterException(spec.commandLine(), ex.getMessage());
        }
    }
}
