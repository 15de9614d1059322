package io.celer.reactor.internal;

/**
 * The argument checks of the reactor's, TCP's and UDP's settings: each returns the value it accepts and refuses
 * others with a message naming the setting, as in {@code readBufferSize must be positive: 0}.
 */
public final class ConfigChecks
{
    private ConfigChecks()
    {
    }

    /**
     * Accepts a value above zero.
     *
     * @param value the value set.
     * @param what  the setting's name.
     * @return the value.
     * @throws IllegalArgumentException if it is zero or less.
     */
    public static int positive(final int value, final String what)
    {
        return (int)positive((long)value, what);
    }

    /**
     * Accepts a value above zero.
     *
     * @param value the value set.
     * @param what  the setting's name.
     * @return the value.
     * @throws IllegalArgumentException if it is zero or less.
     */
    public static long positive(final long value, final String what)
    {
        if (value <= 0)
        {
            throw new IllegalArgumentException(what + " must be positive: " + value);
        }
        return value;
    }

    /**
     * Accepts zero or more.
     *
     * @param value the value set.
     * @param what  the setting's name.
     * @return the value.
     * @throws IllegalArgumentException if it is negative.
     */
    public static int notNegative(final int value, final String what)
    {
        return (int)notNegative((long)value, what);
    }

    /**
     * Accepts zero or more.
     *
     * @param value the value set.
     * @param what  the setting's name.
     * @return the value.
     * @throws IllegalArgumentException if it is negative.
     */
    public static long notNegative(final long value, final String what)
    {
        if (value < 0)
        {
            throw new IllegalArgumentException(what + " must not be negative: " + value);
        }
        return value;
    }

    /**
     * Accepts a value of at least a bound.
     *
     * @param value the value set.
     * @param min   the least value accepted.
     * @param what  the setting's name.
     * @return the value.
     * @throws IllegalArgumentException if it is below the bound.
     */
    public static int atLeast(final int value, final int min, final String what)
    {
        if (value < min)
        {
            throw new IllegalArgumentException(what + " must be at least " + min + ": " + value);
        }
        return value;
    }

    /**
     * Accepts a long value of at least a bound.
     *
     * @param value the value set.
     * @param min   the least value accepted.
     * @param what  the setting's name.
     * @return the value.
     * @throws IllegalArgumentException if it is below the bound.
     */
    public static long atLeast(final long value, final long min, final String what)
    {
        if (value < min)
        {
            throw new IllegalArgumentException(what + " must be at least " + min + ": " + value);
        }
        return value;
    }
}
