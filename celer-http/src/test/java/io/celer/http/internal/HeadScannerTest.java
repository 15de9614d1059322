package io.celer.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/**
 * The head's end is the first empty line after the start line, found the same whether the bytes come at once
 * or one at a time, and each byte is looked at once.
 */
class HeadScannerTest
{
    private static final String HEAD = "GET / HTTP/1.1\r\nHost: a\r\n\r\n";

    @Test
    void findsTheEndAtOnceOrByteByByte()
    {
        final ByteBuffer bytes = ascii("xx" + HEAD + "body");
        final HeadScanner atOnce = new HeadScanner();
        assertThat(atOnce.scan(bytes, 2, bytes.limit())).isTrue();
        assertThat(atOnce.headLength()).isEqualTo(HEAD.length());
        assertThat(atOnce.firstLineFeed()).isEqualTo(HEAD.indexOf('\n'));

        final HeadScanner dribbled = new HeadScanner();
        int to = 2;
        while (!dribbled.scan(bytes, 2, ++to))
        {
            assertThat(dribbled.scanned()).isEqualTo(to - 2);
            assertThat(dribbled.inProgress()).isTrue();
        }
        assertThat(to - 2).isEqualTo(HEAD.length());
        assertThat(dribbled.headLength()).isEqualTo(HEAD.length());
        assertThat(dribbled.firstLineFeed()).isEqualTo(atOnce.firstLineFeed());
        assertThat(dribbled.inProgress()).isFalse();
    }

    @Test
    void anEmptyStartLineDoesNotEndTheHead()
    {
        final ByteBuffer bytes = ascii("\r\nHost: a\r\n\r\n");
        final HeadScanner scanner = new HeadScanner();
        assertThat(scanner.scan(bytes, 0, bytes.limit())).isTrue();
        assertThat(scanner.firstLineFeed()).isEqualTo(1);
        assertThat(scanner.headLength()).isEqualTo(bytes.limit());
    }

    @Test
    void bareLineFeedsEndLinesToo()
    {
        final ByteBuffer bytes = ascii("HTTP/1.1 200 OK\nA: b\n\nrest");
        final HeadScanner scanner = new HeadScanner();
        assertThat(scanner.scan(bytes, 0, bytes.limit())).isTrue();
        assertThat(scanner.headLength()).isEqualTo("HTTP/1.1 200 OK\nA: b\n\n".length());
    }

    @Test
    void resetForgetsTheHeadInProgress()
    {
        final ByteBuffer bytes = ascii(HEAD);
        final HeadScanner scanner = new HeadScanner();
        assertThat(scanner.scan(bytes, 0, 20)).isFalse();
        assertThat(scanner.inProgress()).isTrue();
        scanner.reset();
        assertThat(scanner.inProgress()).isFalse();
        assertThat(scanner.scanned()).isZero();
        assertThat(scanner.firstLineFeed()).isEqualTo(-1);
        assertThat(scanner.headLength()).isEqualTo(-1);
        assertThat(scanner.scan(bytes, 0, bytes.limit())).isTrue();
        assertThat(scanner.headLength()).isEqualTo(HEAD.length());
    }

    private static ByteBuffer ascii(final String text)
    {
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII));
    }
}
