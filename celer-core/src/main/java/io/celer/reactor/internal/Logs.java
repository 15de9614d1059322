package io.celer.reactor.internal;

/**
 * Logging for failure paths, which must not fail in turn: a logger that throws (it may need a file, a
 * descriptor or memory that just ran out) loses the line, never the reactor.
 */
public final class Logs
{
    private Logs()
    {
    }

    /**
     * Logs a line, swallowing whatever the logging throws.
     *
     * @param logger  the logger.
     * @param level   the level.
     * @param message the line.
     */
    public static void log(final System.Logger logger, final System.Logger.Level level, final String message)
    {
        try
        {
            logger.log(level, message);
        }
        catch (final Throwable lost)
        {
            // Nothing to do: reporting that the report failed would fail the same way.
        }
    }

    /**
     * Logs a line and its cause, swallowing whatever the logging throws.
     *
     * @param logger  the logger.
     * @param level   the level.
     * @param message the line.
     * @param cause   the failure.
     */
    public static void log(final System.Logger logger, final System.Logger.Level level, final String message,
        final Throwable cause)
    {
        try
        {
            logger.log(level, message, cause);
        }
        catch (final Throwable lost)
        {
            // Nothing to do: reporting that the report failed would fail the same way.
        }
    }
}
