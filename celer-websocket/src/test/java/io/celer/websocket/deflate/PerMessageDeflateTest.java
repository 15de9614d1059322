package io.celer.websocket.deflate;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import io.celer.websocket.internal.MessageDeflater;
import io.celer.websocket.internal.MessageInflater;

/**
 * Negotiation as RFC 7692 section 7.1 allows with the JDK's fixed 15-bit window (a narrower server window is
 * honoured by coding without back-references), and message compression as
 * in the examples of section 7.2.3.
 */
class PerMessageDeflateTest
{
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "permessage-deflate | permessage-deflate",
        "permessage-deflate; client_max_window_bits | permessage-deflate",
        "permessage-deflate; client_max_window_bits=10 | permessage-deflate",
        "permessage-deflate; server_no_context_takeover | permessage-deflate; server_no_context_takeover",
        "permessage-deflate; client_no_context_takeover | permessage-deflate",
        "permessage-deflate; server_max_window_bits=15 | permessage-deflate; server_max_window_bits=15",
        "permessage-deflate; server_max_window_bits=\"15\" | permessage-deflate; server_max_window_bits=15",
        "permessage-deflate; server_max_window_bits=10, permessage-deflate | permessage-deflate; server_max_window_bits=10",
        "permessage-deflate; server_max_window_bits=8 | permessage-deflate; server_max_window_bits=8",
        "x-webkit-deflate-frame, permessage-deflate ;client_max_window_bits | permessage-deflate",
        "PerMessage-Deflate | permessage-deflate",
        "permessage-deflate; server_max_window_bits | ",
        "permessage-deflate; server_max_window_bits=16 | ",
        "permessage-deflate; client_max_window_bits=7 | ",
        "permessage-deflate; client_max_window_bits=010 | ",
        "permessage-deflate; server_no_context_takeover=1 | ",
        "permessage-deflate; server_no_context_takeover; server_no_context_takeover | ",
        "permessage-deflate; unknown | ",
        "x-webkit-deflate-frame | ",
        "permessage-deflate; | ",
        "permessage-deflate server_no_context_takeover | "})
    void serverAcceptsWhatItCanHonour(final String offer, final String response)
    {
        final DeflateParameters agreed = new PerMessageDeflate(false, false).accept(offer);
        if (response == null)
        {
            assertThat(agreed).isNull();
        }
        else
        {
            assertThat(agreed).isNotNull();
            assertThat(PerMessageDeflate.response(agreed)).isEqualTo(response);
        }
    }

    @Test
    void aNarrowerWindowIsHonouredWithoutBackReferences()
    {
        final byte[] repetitive = new byte[10_000];
        java.util.Arrays.fill(repetitive, (byte)'a');
        final java.nio.ByteBuffer wide = java.nio.ByteBuffer.allocate(20_000);
        final java.nio.ByteBuffer narrow = java.nio.ByteBuffer.allocate(20_000);
        try (MessageDeflater full = new MessageDeflater(-1, false, 15);
            MessageDeflater nineBits = new MessageDeflater(-1, false, 9))
        {
            assertThat(full.deflate(java.nio.ByteBuffer.wrap(repetitive), wide)).isTrue();
            assertThat(nineBits.deflate(java.nio.ByteBuffer.wrap(repetitive), narrow)).isTrue();
        }
        // With back-references 10,000 equal bytes take a few dozen; coded one by one, at least a bit each.
        assertThat(wide.position()).isLessThan(100);
        assertThat(narrow.position()).isGreaterThanOrEqualTo(repetitive.length / 8);
        final java.util.zip.Inflater inflater = new java.util.zip.Inflater(true);
        inflater.setInput(narrow.flip());
        final byte[] back = new byte[repetitive.length];
        try
        {
            assertThat(inflater.inflate(back)).isEqualTo(repetitive.length);
        }
        catch (final java.util.zip.DataFormatException ex)
        {
            throw new AssertionError(ex);
        }
        finally
        {
            inflater.end();
        }
        assertThat(back).isEqualTo(repetitive);
    }

    @Test
    void serverMayAskForResetsItWasNotOffered()
    {
        final DeflateParameters agreed = new PerMessageDeflate(true, true).accept("permessage-deflate");
        assertThat(agreed.serverNoContextTakeover()).isTrue();
        assertThat(agreed.clientNoContextTakeover()).isTrue();
        assertThat(PerMessageDeflate.response(agreed))
            .isEqualTo("permessage-deflate; server_no_context_takeover; client_no_context_takeover");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "permessage-deflate | true",
        "permessage-deflate; server_no_context_takeover | true",
        "permessage-deflate; client_no_context_takeover | true",
        "permessage-deflate; server_max_window_bits=10 | true",
        "permessage-deflate; client_max_window_bits=10 | false",
        "permessage-deflate; client_max_window_bits | false",
        "permessage-deflate; server_max_window_bits=20 | false",
        "permessage-deflate; bogus | false",
        "permessage-deflate, permessage-deflate | false",
        "x-other | false"})
    void clientConfirmsOnlyWhatItOfferedAndCanDo(final String response, final boolean ok)
    {
        final PerMessageDeflate client = new PerMessageDeflate(false, false);
        assertThat(client.offer()).isEqualTo("permessage-deflate");
        assertThat(client.confirm(response) != null).isEqualTo(ok);
    }

    @Test
    void clientThatAsksForServerResetsRequiresThem()
    {
        final PerMessageDeflate client = new PerMessageDeflate(true, false);
        assertThat(client.offer()).isEqualTo("permessage-deflate; server_no_context_takeover");
        assertThat(client.confirm("permessage-deflate")).isNull();
        assertThat(client.confirm("permessage-deflate; server_no_context_takeover").serverNoContextTakeover()).isTrue();
    }

    @Test
    void rfcHelloCompressesToTheRfcsBytesAndSharesItsWindow()
    {
        final MessageDeflater deflater = new MessageDeflater(-1, false);
        final ByteBuffer out = ByteBuffer.allocateDirect(64);
        assertThat(deflater.deflate(hello(), out)).isTrue();
        assertThat(hex(out)).isEqualTo("f248cdc9c90700");
        out.clear();
        assertThat(deflater.deflate(hello(), out)).isTrue();
        assertThat(hex(out)).as("7.2.3.2: the second refers back to the first").isEqualTo("f200110000");
        deflater.close();

        final MessageDeflater resetting = new MessageDeflater(-1, true);
        for (int i = 0; i < 2; i++)
        {
            out.clear();
            resetting.deflate(hello(), out);
            assertThat(hex(out)).isEqualTo("f248cdc9c90700");
        }
        out.clear();
        resetting.deflate(ByteBuffer.allocate(0), out);
        assertThat(hex(out)).as("7.2.3.6: an empty message").isEqualTo("00");
        resetting.close();
    }

    @Test
    void partsDeflatedOneByOneInflateAsOneMessage()
    {
        final MessageDeflater deflater = new MessageDeflater(-1, false);
        final MessageInflater inflater = new MessageInflater(false);
        final ByteBuffer out = ByteBuffer.allocateDirect(256);
        for (int round = 0; round < 2; round++)
        {
            final String[] parts = {"Hello, ", "", "Hello, ", "Hello"};
            final String[] compressed = new String[parts.length];
            for (int i = 0; i < parts.length; i++)
            {
                out.clear();
                final ByteBuffer part = ByteBuffer.wrap(parts[i].getBytes(StandardCharsets.US_ASCII));
                assertThat(part.remaining()).isLessThan(MessageDeflater.bound(part.remaining()));
                assertThat(deflater.deflate(part, out, i == parts.length - 1)).isTrue();
                assertThat(part.hasRemaining()).isFalse();
                compressed[i] = hex(out);
            }
            assertThat(compressed[1]).as("nothing new, nothing out").isEmpty();
            assertThat(inflate(inflater, compressed)).isEqualTo("Hello, Hello, Hello");
        }
        out.clear();
        deflater.deflate(ByteBuffer.allocate(0), out, false);
        deflater.deflate(ByteBuffer.allocate(0), out, true);
        assertThat(hex(out)).as("an empty message still ends in a block header").isEqualTo("00");
        assertThat(inflate(inflater, hex(out))).isEmpty();
        deflater.close();
        inflater.close();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "7.2.3.1 one frame, f248cdc9c90700",
        "7.2.3.3 a stored block, 000500faff48656c6c6f00",
        "7.2.3.4 a final block, f348cdc9c90700 00",
        "7.2.3.5 two blocks, f248050000 00ffff cac9c90700"})
    void rfcExamplesInflateToHello(final String name, final String compressed)
    {
        final MessageInflater inflater = new MessageInflater(false);
        for (int round = 0; round < 2; round++)
        {
            assertThat(inflate(inflater, compressed)).isEqualTo("Hello");
        }
        inflater.close();
    }

    @Test
    void rfcSharedWindowAndFragmentsInflate()
    {
        final MessageInflater inflater = new MessageInflater(false);
        assertThat(inflate(inflater, "f248cd", "c9c90700")).isEqualTo("Hello");
        assertThat(inflate(inflater, "f200110000")).isEqualTo("Hello");
        inflater.close();
    }

    @Test
    void corruptDataIsReported()
    {
        final MessageInflater inflater = new MessageInflater(false);
        inflater.input(ByteBuffer.wrap(HexFormat.of().parseHex("ffffffff")));
        assertThat(inflater.inflate(ByteBuffer.allocate(64))).isEqualTo(MessageInflater.CORRUPT);
        inflater.close();
    }

    private static String inflate(final MessageInflater inflater, final String... chunks)
    {
        final ByteBuffer out = ByteBuffer.allocate(1024);
        for (final String chunk : chunks)
        {
            inflater.input(ByteBuffer.wrap(HexFormat.of().parseHex(chunk.replace(" ", ""))));
            while (inflater.inflate(out) > 0)
            {
                assertThat(out.hasRemaining()).isTrue();
            }
        }
        inflater.endOfMessage();
        while (inflater.inflate(out) > 0)
        {
            assertThat(out.hasRemaining()).isTrue();
        }
        inflater.messageDone();
        return new String(out.array(), 0, out.position(), StandardCharsets.US_ASCII);
    }

    private static ByteBuffer hello()
    {
        return ByteBuffer.wrap("Hello".getBytes(StandardCharsets.US_ASCII));
    }

    private static String hex(final ByteBuffer out)
    {
        final byte[] bytes = new byte[out.position()];
        out.get(0, bytes);
        return HexFormat.of().formatHex(bytes);
    }
}
