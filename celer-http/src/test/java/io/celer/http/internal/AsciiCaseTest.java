package io.celer.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/**
 * Comparing with a lower-case constant's bytes agrees with comparing with its text, for every byte value at
 * every place, and lengths must match.
 */
class AsciiCaseTest
{
    @Test
    void aLowerCaseConstantMatchesAsItsTextDoes()
    {
        final String[] constants = {"host", "content-length", "100-continue", "keep-alive", "a", "z", "-"};
        for (final String constant : constants)
        {
            final byte[] lower = constant.getBytes(StandardCharsets.US_ASCII);
            for (int at = 0; at < lower.length; at++)
            {
                for (int value = 0; value < 256; value++)
                {
                    final ByteBuffer buffer = ByteBuffer.wrap(lower.clone());
                    buffer.put(at, (byte)value);
                    assertThat(Ascii.equalsLowerCase(buffer, 0, lower.length, lower))
                        .as("'%s' with byte %d at %d", constant, value, at)
                        .isEqualTo(Ascii.equalsIgnoreCase(buffer, 0, lower.length, constant));
                }
            }
            final ByteBuffer longer = ByteBuffer.wrap((constant + "x").getBytes(StandardCharsets.US_ASCII));
            assertThat(Ascii.equalsLowerCase(longer, 0, longer.limit(), lower)).isFalse();
            assertThat(Ascii.equalsLowerCase(longer, 0, lower.length, lower)).isTrue();
            final ByteBuffer upper = ByteBuffer.wrap(constant.toUpperCase().getBytes(StandardCharsets.US_ASCII));
            assertThat(Ascii.equalsLowerCase(upper, 0, upper.limit(), lower)).isTrue();
        }
    }
}
