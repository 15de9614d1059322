package io.celer.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/**
 * A pre-encoded field is checked as {@code HttpResponse.header(name, value)} checks, once, and writes its line
 * whole or not at all.
 */
class HeaderFieldTest
{
    @Test
    void encodesTheLineWithItsCrlf()
    {
        final HeaderField field = HeaderField.of("Content-Type", "text/plain; charset=utf-8");
        final ByteBuffer out = ByteBuffer.allocate(64);
        field.writeTo(out);
        assertThat(new String(out.array(), 0, out.position(), StandardCharsets.US_ASCII))
            .isEqualTo("Content-Type: text/plain; charset=utf-8\r\n");
        assertThat(field.encodedLength()).isEqualTo(out.position());
        assertThat(field.name()).isEqualTo("Content-Type");
        assertThat(field.value()).isEqualTo("text/plain; charset=utf-8");
        assertThat(field).hasToString("Content-Type: text/plain; charset=utf-8");
    }

    @Test
    void refusesANameThatIsNotATokenAndAValueThatWouldSplitTheHead()
    {
        assertThatThrownBy(() -> HeaderField.of("", "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HeaderField.of("Bad Name", "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HeaderField.of("X-A", "one\r\nX-Injected: yes"))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HeaderField.of("X-A", "one\ntwo")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void writesNothingWhenTheLineDoesNotFit()
    {
        final ByteBuffer out = ByteBuffer.allocate(8);
        out.put((byte)'x');
        assertThatThrownBy(() -> HeaderField.of("X-Long", "too long").writeTo(out))
            .isInstanceOf(BufferOverflowException.class);
        assertThat(out.position()).isEqualTo(1);
    }
}
