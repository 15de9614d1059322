package io.celer.http;

/**
 * The argument checks shared by the server's and the client's configuration: a clear message naming the setting.
 */
final class ConfigChecks
{
    private ConfigChecks()
    {
    }

    static int atLeast(final int value, final int min, final String what)
    {
        if (value < min)
        {
            throw new IllegalArgumentException(what + " must be at least " + min + ": " + value);
        }
        return value;
    }

    static long positive(final long value, final String what)
    {
        if (value <= 0)
        {
            throw new IllegalArgumentException(what + " must be positive: " + value);
        }
        return value;
    }
}
