package io.celer.bench.harness;

/**
 * A benchmark run that could not complete: a peer failed, hung or printed nonsense.
 */
public final class BenchException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * An exception with the whole story in its message.
     *
     * @param message what happened.
     */
    public BenchException(final String message)
    {
        super(message);
    }
}
