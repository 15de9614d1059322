package io.celer.bench.harness;

import java.util.Locale;

/**
 * Formats the cells of a report's tables alike in every benchmark: the same digits on every machine
 * ({@link Locale#ROOT}), {@code n/a} for what was not measured, and fewer decimals for large values.
 */
public final class Cells
{
    /** What a cell says for a value that was not measured. */
    public static final String NOT_AVAILABLE = "n/a";

    private Cells()
    {
    }

    /**
     * Formats whatever the locale of the machine.
     *
     * @param pattern a {@link String#format} pattern.
     * @param args    its arguments.
     * @return the text.
     */
    public static String format(final String pattern, final Object... args)
    {
        return String.format(Locale.ROOT, pattern, args);
    }

    /**
     * A value that may not have been measured.
     *
     * @param value   the value, or null.
     * @param pattern how to format it.
     * @return the text, or {@code n/a}.
     */
    public static String orNa(final Object value, final String pattern)
    {
        return value == null ? NOT_AVAILABLE : format(pattern, value);
    }

    /**
     * Bytes allocated per message: whole bytes from 10 up, where the decimals are noise.
     *
     * @param bytes the bytes, or null without a JVM.
     * @return such as {@code 0.00} or {@code 48}, or {@code n/a}.
     */
    public static String perMessage(final Double bytes)
    {
        return bytes == null ? NOT_AVAILABLE : format(bytes >= 10 ? "%.0f" : "%.2f", bytes);
    }

    /**
     * CPU time per request or message, in microseconds to a tenth.
     *
     * @param micros the time, or null where not measured.
     * @return such as {@code 6.4}, or {@code n/a}.
     */
    public static String cpuPerMessage(final Double micros)
    {
        return orNa(micros, "%,.1f");
    }

    /**
     * A latency in microseconds: whole microseconds from 100 up.
     *
     * @param micros the latency.
     * @return such as {@code 12.34} or {@code 1,234}.
     */
    public static String micros(final double micros)
    {
        return format(micros >= 100 ? "%,.0f" : "%.2f", micros);
    }
}
