package io.celer.examples.cli;

/**
 * Arguments that parse but do not make sense together, found when a demo starts: exits with the usage code
 * (2) and the message, before anything runs.
 */
public final class UsageException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * An argument error.
     *
     * @param message what is wrong, naming the option.
     */
    public UsageException(final String message)
    {
        super(message);
    }
}
