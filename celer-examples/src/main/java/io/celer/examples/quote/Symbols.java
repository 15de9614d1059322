package io.celer.examples.quote;

/**
 * What a quote request's path looks like: {@code /SYMBOL}, a slash and 1 to {@value #MAX_LENGTH} letters,
 * digits, dots or dashes ({@code /IBM}, {@code /BRK.B}).
 */
final class Symbols
{
    /** The longest symbol. */
    static final int MAX_LENGTH = 16;

    private Symbols()
    {
    }

    /**
     * Whether a path names a symbol; allocation-free.
     *
     * @param path the request's path.
     * @return true for {@code /SYMBOL}.
     */
    static boolean isQuotePath(final CharSequence path)
    {
        final int length = path.length();
        if (length < 2 || length > MAX_LENGTH + 1 || path.charAt(0) != '/')
        {
            return false;
        }
        for (int i = 1; i < length; i++)
        {
            final char c = path.charAt(i);
            if (!(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-'))
            {
                return false;
            }
        }
        return true;
    }
}
