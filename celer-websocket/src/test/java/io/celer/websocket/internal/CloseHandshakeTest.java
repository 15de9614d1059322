package io.celer.websocket.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.HexFormat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * The close handshake sends one close frame, answers the peer's, and checks close bodies per RFC 6455 7.4.
 */
class CloseHandshakeTest
{
    @Test
    void weCloseFirstThenThePeerAnswers()
    {
        final CloseHandshake close = new CloseHandshake();
        assertThat(close.canSend()).isTrue();
        assertThat(close.sendClose(1000)).isTrue();
        assertThat(close.sendClose(1001)).as("only once").isFalse();
        assertThat(close.canSend()).isFalse();
        assertThat(close.canReceive()).as("data may still arrive").isTrue();
        assertThat(close.isComplete()).isFalse();
        assertThat(close.closeReceived(1000)).as("no answer to an answer").isFalse();
        assertThat(close.isComplete()).isTrue();
        assertThat(close.sentCode()).isEqualTo(1000);
    }

    @Test
    void thePeerClosesFirstAndIsAnsweredWithItsCode()
    {
        final CloseHandshake close = new CloseHandshake();
        assertThat(close.closeReceived(4000)).isTrue();
        assertThat(close.canReceive()).isFalse();
        assertThat(close.answerCode()).isEqualTo(4000);
        assertThat(close.sendClose(close.answerCode())).isTrue();
        assertThat(close.isComplete()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535})
    void invalidCodesAreProtocolErrors(final int code)
    {
        assertThat(CloseHandshake.check(body(code, ""), new Utf8Validator())).isEqualTo(1002);
    }

    @ParameterizedTest
    @ValueSource(ints = {1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3999, 4000, 4999})
    void validCodesPass(final int code)
    {
        assertThat(CloseHandshake.check(body(code, "ok"), new Utf8Validator())).isZero();
        assertThat(CloseHandshake.code(body(code, "ok"))).isEqualTo(code);
    }

    @ParameterizedTest
    @CsvSource({"'', 0", "03, 1002", "03e8, 0", "03e8ceba, 0", "03e8cebae1bdb9cf83cebcceb5eda080656469746564, 1007",
        "03e8ff, 1007", "03e8c3, 1007"})
    void bodies(final String hex, final int expected)
    {
        final ByteBuffer body = ByteBuffer.wrap(HexFormat.of().parseHex(hex));
        assertThat(CloseHandshake.check(body, new Utf8Validator())).isEqualTo(expected);
        assertThat(body.position()).isZero();
    }

    private static ByteBuffer body(final int code, final String reason)
    {
        final ByteBuffer body = ByteBuffer.allocate(2 + reason.length());
        body.putShort((short)code).put(reason.getBytes(java.nio.charset.StandardCharsets.US_ASCII)).flip();
        return body;
    }
}
