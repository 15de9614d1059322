package io.celer.framing;

/**
 * The peer sent bytes that break the framing: a message over its bound or a malformed header.
 */
public final class FramingException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * Builds the exception.
     *
     * @param message what was wrong, for the handler and the logs.
     */
    public FramingException(final String message)
    {
        super(message);
    }
}
