package io.celer.websocket.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The handshake answer's parser: strict on line ends, names and folding; bounded; leaves what follows the head.
 */
class ResponseHeadTest
{
    private static ByteBuffer bytes(final String text)
    {
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    @Test
    void parsesAHeadSplitAcrossReadsAndLeavesTheBytesAfterIt()
    {
        final ResponseHead head = new ResponseHead(1024);
        final String text = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nX-A: 1\r\nx-a:  2 \r\n\r\n";
        assertThat(head.parse(bytes(text.substring(0, 40)))).isEqualTo(ResponseHead.NEED_MORE);
        final ByteBuffer whole = bytes(text + "\u0081\u0002hi");
        assertThat(head.parse(whole)).isEqualTo(ResponseHead.DONE);
        assertThat(whole.remaining()).isEqualTo(4);
        assertThat(head.status()).isEqualTo(101);
        assertThat(head.value("upgrade")).isEqualTo("websocket");
        assertThat(head.value("X-A")).isEqualTo("1, 2");
        assertThat(head.count("x-a")).isEqualTo(2);
        assertThat(head.value("Absent")).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "HTTP/1.1 101 OK\nUpgrade: websocket\r\n\r\n",
        "HTTP/1.1 101 OK\r\nUpgrade: websocket\n\r\n\r\n",
        "HTTP/1.1 101 OK\r\nUpgrade : websocket\r\n\r\n",
        "HTTP/1.1 101 OK\r\nUpgrade: websocket\r\n folded\r\n\r\n",
        "HTTP/1.1 101 OK\r\nUp\u0000grade: websocket\r\n\r\n",
        "HTTP/1.1 101 OK\r\nUpgrade: web\u0001socket\r\n\r\n",
        "HTTP/1.1 101 OK\r\n: websocket\r\n\r\n",
        "HTTP/1.0 101 OK\r\n\r\n",
        "HTTP/1.1 1O1 OK\r\n\r\n",
        "HTTP/1.1 101\r\n\r\n",
        "ICY 200 OK\r\n\r\n"})
    void rejectsMalformedHeads(final String text)
    {
        final ResponseHead head = new ResponseHead(1024);
        assertThat(head.parse(bytes(text))).isEqualTo(ResponseHead.INVALID);
        assertThat(head.error()).isNotBlank();
    }

    @Test
    void rejectsAHeadLongerThanItsBound()
    {
        final ResponseHead head = new ResponseHead(64);
        assertThat(head.parse(bytes("HTTP/1.1 101 OK\r\nX: " + "a".repeat(100)))).isEqualTo(ResponseHead.INVALID);
    }
}
