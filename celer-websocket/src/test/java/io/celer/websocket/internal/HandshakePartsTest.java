package io.celer.websocket.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.celer.test.Allocations;
import io.celer.websocket.server.OriginCheck;

/**
 * The handshake's pieces: RFC 6455's accept example, key checks, generated keys, subprotocols and origins, and
 * the accept computation allocating nothing once warm.
 */
class HandshakePartsTest
{
    private static final String RFC_KEY = "dGhlIHNhbXBsZSBub25jZQ==";
    private static final String RFC_ACCEPT = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=";

    @Test
    void rfcAcceptExampleFromCharsAndFromBytes()
    {
        final AcceptKey accept = new AcceptKey();
        final ByteBuffer out = ByteBuffer.allocate(64);
        accept.write(RFC_KEY, out);
        assertThat(new String(out.array(), 0, out.position(), StandardCharsets.US_ASCII)).isEqualTo(RFC_ACCEPT);

        final ByteBuffer request = ByteBuffer.allocateDirect(64).put(("xx" + RFC_KEY + "yy").getBytes(StandardCharsets.US_ASCII));
        out.clear();
        accept.write(request, 2, 26, out);
        assertThat(new String(out.array(), 0, out.position(), StandardCharsets.US_ASCII)).isEqualTo(RFC_ACCEPT);
        assertThat(accept.matches(RFC_KEY, RFC_ACCEPT)).isTrue();
        assertThat(accept.matches(RFC_KEY, RFC_ACCEPT.replace('s', 't'))).isFalse();
    }

    @Test
    void acceptAllocatesNothingOnceWarm()
    {
        final AcceptKey accept = new AcceptKey();
        final ByteBuffer key = ByteBuffer.allocateDirect(24).put(RFC_KEY.getBytes(StandardCharsets.US_ASCII));
        final ByteBuffer out = ByteBuffer.allocateDirect(28);
        for (int i = 0; i < 100_000; i++)
        {
            out.clear();
            accept.write(key, 0, 24, out);
        }
        // A compiler tier change may still allocate once on this thread; an allocation per call shows in every round.
        long least = Long.MAX_VALUE;
        for (int round = 0; round < 5 && least > 0; round++)
        {
            final long before = Allocations.currentThreadAllocatedBytes();
            for (int i = 0; i < 10_000; i++)
            {
                out.clear();
                accept.write(key, 0, 24, out);
            }
            least = Math.min(least, Allocations.currentThreadAllocatedBytes() - before);
        }
        assertThat(least).as("bytes allocated by 10,000 accept computations").isZero();
    }

    @Test
    void generatedKeysAreValidBase64OfTheGeneratorsBytes() throws Exception
    {
        for (long seed = 0; seed < 200; seed++)
        {
            final ByteBuffer out = ByteBuffer.allocate(24);
            SecWebSocketKey.generate(new MaskKeys(seed), out);
            final String key = new String(out.array(), StandardCharsets.US_ASCII);
            assertThat(SecWebSocketKey.isValid(key)).as(key).isTrue();
            final MaskKeys same = new MaskKeys(seed);
            final byte[] expected = ByteBuffer.allocate(16).putLong(same.nextLong()).putLong(same.nextLong()).array();
            assertThat(Base64.getDecoder().decode(key)).isEqualTo(expected);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "dGhlIHNhbXBsZSBub25jZQ=", "dGhlIHNhbXBsZSBub25jZQ===", "dGhlIHNhbXBsZSBub25jZ===",
        "dGhlIHNhbXBsZSBub25jZQ==x", "dGhlIHNhbXBsZ SBub25jZQ==", "dGhlIHNhbXBsZSBub25jZ.==", "AAAAAAAAAAAAAAAAAAAAAAAA"})
    void invalidKeys(final String key)
    {
        assertThat(SecWebSocketKey.isValid(key)).isFalse();
        final ByteBuffer bytes = ByteBuffer.wrap(key.getBytes(StandardCharsets.US_ASCII));
        assertThat(SecWebSocketKey.isValid(bytes, 0, bytes.limit())).isFalse();
    }

    @Test
    void validKeyAsBytes()
    {
        final ByteBuffer bytes = ByteBuffer.wrap(RFC_KEY.getBytes(StandardCharsets.US_ASCII));
        assertThat(SecWebSocketKey.isValid(bytes, 0, 24)).isTrue();
        assertThat(SecWebSocketKey.isValid(RFC_KEY)).isTrue();
    }

    @Test
    void subprotocolsFollowTheServersPreferenceAmongThoseOffered()
    {
        final String[] supported = {"v2.chat", "chat", "superchat"};
        assertThat(Subprotocols.select("chat, superchat", supported)).isSameAs(supported[1]);
        assertThat(Subprotocols.select("superchat,v2.chat", supported)).isSameAs(supported[0]);
        assertThat(Subprotocols.select(" superchat ", supported)).isSameAs(supported[2]);
        assertThat(Subprotocols.select("Chat, chat2, v2", supported)).isNull();
        assertThat(Subprotocols.select(null, supported)).isNull();
        assertThat(Subprotocols.select("", supported)).isNull();
    }

    @Test
    void originChecks()
    {
        final OriginCheck check = OriginCheck.allowing("https://example.com", "http://localhost:8080");
        assertThat(check.allows("https://EXAMPLE.com")).isTrue();
        assertThat(check.allows("http://localhost:8080")).isTrue();
        assertThat(check.allows("https://example.com.evil")).isFalse();
        assertThat(check.allows("http://localhost:8081")).isFalse();
        assertThat(check.allows(null)).as("not a browser").isTrue();
        assertThat(OriginCheck.any().allows("null")).isTrue();
    }
}
