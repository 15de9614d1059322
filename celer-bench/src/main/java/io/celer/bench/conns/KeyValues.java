package io.celer.bench.conns;

import java.util.HashMap;
import java.util.Map;

import io.celer.bench.harness.BenchException;

/**
 * The {@code key=value} pairs of a line a child prints after its word, such as
 * {@code held opened=5000 answered=5000 nanos=123}.
 */
final class KeyValues
{
    private final String line;
    private final Map<String, String> values = new HashMap<>();

    private KeyValues(final String line)
    {
        this.line = line;
        for (final String pair : line.trim().split("\\s+"))
        {
            final int eq = pair.indexOf('=');
            if (eq > 0)
            {
                values.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
        }
    }

    /**
     * Reads a line.
     *
     * @param line the line, its first word included.
     * @return its pairs.
     */
    static KeyValues of(final String line)
    {
        return new KeyValues(line);
    }

    /**
     * A whole number the line must have.
     *
     * @param key its name.
     * @return the value.
     * @throws BenchException if the line lacks it or it is not a number.
     */
    long number(final String key)
    {
        final String value = values.get(key);
        try
        {
            return Long.parseLong(value);
        }
        catch (final NumberFormatException ex)
        {
            throw new BenchException("no number " + key + "= in '" + line + "'");
        }
    }
}
