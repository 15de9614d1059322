package io.celer.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/**
 * A field value's list read for several tokens in one pass gives what asking for each token alone gives:
 * elements trimmed, compared without case, empty ones skipped, a token inside a longer element not listed.
 */
class AsciiListTest
{
    private static final CharSequence[] TOKENS = {"close", "keep-alive", "upgrade"};

    @Test
    void severalTokensAtOnceAgreeWithEachAlone()
    {
        final String[] values = {"", "close", "Keep-Alive", " upgrade , close ", ",,keep-alive,,", "closed",
            "keep-alive, Upgrade", "\tclose\t,x", "up grade", "x, y, CLOSE", "keep-alive-ish, upgrade2"};
        for (final String value : values)
        {
            final ByteBuffer buffer = ByteBuffer.wrap(("x" + value + "y").getBytes(StandardCharsets.US_ASCII));
            final int end = 1 + value.length();
            int expected = 0;
            for (int k = 0; k < TOKENS.length; k++)
            {
                if (Ascii.listContains(buffer, 1, end, TOKENS[k]))
                {
                    expected |= 1 << k;
                }
            }
            assertThat(Ascii.listedTokens(buffer, 1, end, TOKENS)).as("'%s'", value).isEqualTo(expected);
        }
        final ByteBuffer both = ByteBuffer.wrap(" Upgrade, keep-alive ".getBytes(StandardCharsets.US_ASCII));
        assertThat(Ascii.listedTokens(both, 0, both.limit(), TOKENS)).isEqualTo(0b110);
        assertThat(Ascii.listContains(both, 0, both.limit(), "close")).isFalse();
        assertThat(Ascii.listContains(both, 0, both.limit(), "upgrade")).isTrue();
    }
}
