package io.celer.websocket.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.celer.websocket.deflate.PerMessageDeflate;

/**
 * The handshake's answer as the client reads it: split across reads, bounded, strict on the head's syntax, and
 * checked as RFC 6455 section 4.1 asks (status, version, Upgrade, Connection, accept key, extension and
 * subprotocol only as offered).
 */
class UpgradeAnswerTest
{
    // RFC 6455 section 1.3's example key and the accept value it calls for.
    private static final String KEY = "dGhlIHNhbXBsZSBub25jZQ==";
    private static final String ACCEPT = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=";
    private static final String WITHOUT_ACCEPT =
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n";
    private static final String SWITCHING = WITHOUT_ACCEPT + "Sec-WebSocket-Accept: " + ACCEPT + "\r\n";

    private static ByteBuffer bytes(final String text)
    {
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static UpgradeAnswer offering(final PerMessageDeflate deflate, final String... subprotocols)
    {
        return new UpgradeAnswer(KEY, subprotocols, deflate);
    }

    private static UpgradeAnswer refused(final String answer)
    {
        final UpgradeAnswer read = offering(null);
        assertThat(read.read(bytes(answer))).as(answer).isEqualTo(UpgradeAnswer.REFUSED);
        assertThat(read.failure()).isNotBlank();
        return read;
    }

    @Test
    void readsAnAnswerSplitAcrossReadsAndLeavesTheFramesAfterIt()
    {
        final UpgradeAnswer answer = offering(null);
        final String text = SWITCHING + "X-A: 1\r\nx-a:  2 \r\n\r\n";
        final ByteBuffer first = bytes(text.substring(0, 40));
        assertThat(answer.read(first)).isEqualTo(UpgradeAnswer.NEED_MORE);
        assertThat(first.position()).as("the bytes stay for the next read").isZero();
        final ByteBuffer whole = bytes(text + "\u0081\u0002hi");
        assertThat(answer.read(whole)).isEqualTo(UpgradeAnswer.ACCEPTED);
        assertThat(whole.remaining()).isEqualTo(4);
        assertThat(answer.failure()).isNull();
        assertThat(answer.subprotocol()).isNull();
        assertThat(answer.compression()).isNull();
    }

    @Test
    void refusesAStatusOtherThan101OrAnHttp10Answer()
    {
        assertThat(refused("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n").failure()).contains("404");
        assertThat(refused(SWITCHING.replace("HTTP/1.1", "HTTP/1.0") + "\r\n").failure()).contains("HTTP/1.0");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "",
        "Sec-WebSocket-Accept: x3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n",
        "Sec-WebSocket-Accept: " + ACCEPT + "\r\nSec-WebSocket-Accept: " + ACCEPT + "\r\n"})
    void refusesAnAcceptThatIsMissingWrongOrRepeated(final String acceptFields)
    {
        assertThat(refused(WITHOUT_ACCEPT + acceptFields + "\r\n").failure()).contains("Sec-WebSocket-Accept");
    }

    @Test
    void wantsOneUpgradeToWebsocketAndAConnectionThatListsUpgrade()
    {
        assertThat(refused(SWITCHING.replace("Upgrade: websocket\r\n", "") + "\r\n").failure()).contains("Upgrade");
        assertThat(refused(SWITCHING.replace("websocket", "h2c") + "\r\n").failure()).contains("Upgrade");
        assertThat(refused(SWITCHING + "Upgrade: websocket\r\n\r\n").failure()).contains("Upgrade");
        assertThat(refused(SWITCHING.replace("Connection: Upgrade", "Connection: close") + "\r\n").failure())
            .contains("Connection");
        final UpgradeAnswer listed = offering(null);
        assertThat(listed.read(bytes(SWITCHING.replace("Connection: Upgrade", "Connection: keep-alive\r\n" +
            "Connection: keep-alive, UPGRADE") + "\r\n"))).isEqualTo(UpgradeAnswer.ACCEPTED);
    }

    @Test
    void agreesOnPermessageDeflateOnlyWhenOffered()
    {
        final String deflated = SWITCHING + "Sec-WebSocket-Extensions: permessage-deflate\r\n\r\n";
        final UpgradeAnswer offered = offering(new PerMessageDeflate(false, false));
        assertThat(offered.read(bytes(deflated))).isEqualTo(UpgradeAnswer.ACCEPTED);
        assertThat(offered.compression()).isNotNull();
        assertThat(refused(deflated).failure()).contains("extensions were not offered: permessage-deflate");
    }

    @Test
    void takesOneSubprotocolOnlyWhenOffered()
    {
        final UpgradeAnswer chosen = offering(null, "other", "chat");
        assertThat(chosen.read(bytes(SWITCHING + "Sec-WebSocket-Protocol: chat\r\n\r\n")))
            .isEqualTo(UpgradeAnswer.ACCEPTED);
        assertThat(chosen.subprotocol()).isEqualTo("chat");
        final UpgradeAnswer unknown = offering(null, "other", "chat");
        assertThat(unknown.read(bytes(SWITCHING + "Sec-WebSocket-Protocol: mqtt\r\n\r\n")))
            .isEqualTo(UpgradeAnswer.REFUSED);
        assertThat(unknown.failure()).contains("subprotocol was not offered: mqtt");
        final UpgradeAnswer twice = offering(null, "other", "chat");
        assertThat(twice.read(bytes(SWITCHING + "Sec-WebSocket-Protocol: chat\r\nSec-WebSocket-Protocol: chat\r\n" +
            "\r\n"))).isEqualTo(UpgradeAnswer.REFUSED);
        assertThat(twice.failure()).contains("subprotocol");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "HTTP/1.1 101 OK\nUpgrade: websocket\r\n\r\n",
        "HTTP/1.1 101 OK\r\nUpgrade: websocket\n\r\n\r\n",
        "HTTP/1.1 101 OK\r\nUpgrade : websocket\r\n\r\n",
        "HTTP/1.1 101 OK\r\nUp\u0000grade: websocket\r\n\r\n",
        "HTTP/1.1 101 OK\r\nUpgrade: web\u0001socket\r\n\r\n",
        "HTTP/1.1 101 OK\r\n: websocket\r\n\r\n",
        "HTTP/1.1 1O1 OK\r\n\r\n",
        "ICY 200 OK\r\n\r\n"})
    void refusesAMalformedHead(final String text)
    {
        assertThat(refused(text).failure()).startsWith("a malformed answer: ");
    }

    @Test
    void refusesAHeadLongerThanItsBound()
    {
        assertThat(refused(SWITCHING + "X: " + "a".repeat(16 * 1024)).failure())
            .isEqualTo("a malformed answer: response head larger than the limit");
    }
}
