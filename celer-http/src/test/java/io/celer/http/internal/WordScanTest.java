package io.celer.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * The word-at-a-time scans agree with the byte-at-a-time definitions on every byte value, at every offset and
 * length, in heap and direct buffers of either byte order.
 */
class WordScanTest
{
    private static final int ROUNDS = 20_000;

    @Test
    void theLineFeedFoundIsTheFirstAndNoneIsMissed()
    {
        final SplittableRandom random = new SplittableRandom(7);
        for (int round = 0; round < ROUNDS; round++)
        {
            final ByteBuffer buffer = randomBuffer(random, round);
            final int from = random.nextInt(buffer.limit() + 1);
            final int to = from + random.nextInt(buffer.limit() - from + 1);
            int expected = -1;
            for (int i = from; i < to; i++)
            {
                if (buffer.get(i) == '\n')
                {
                    expected = i;
                    break;
                }
            }
            assertThat(WordScan.lineFeed(buffer, from, to)).as("round %d, %s to %d", round, from, to)
                .isEqualTo(expected);
        }
    }

    @Test
    void fieldEndIsTheFirstByteAValueMayNotHold()
    {
        final SplittableRandom random = new SplittableRandom(13);
        for (int round = 0; round < ROUNDS; round++)
        {
            final ByteBuffer buffer = randomBuffer(random, round);
            final int from = random.nextInt(buffer.limit() + 1);
            final int to = from + random.nextInt(buffer.limit() - from + 1);
            int expected = to;
            for (int i = from; i < to; i++)
            {
                final int b = buffer.get(i) & 0xFF;
                if (b < 0x20 && b != '\t' || b == 0x7F)
                {
                    expected = i;
                    break;
                }
            }
            assertThat(WordScan.fieldEnd(buffer, from, to)).as("round %d, %s to %d", round, from, to)
                .isEqualTo(expected);
        }
    }

    @Test
    void eachByteValueAloneAmongLettersIsJudgedAsItsOwn()
    {
        for (int value = 0; value < 256; value++)
        {
            for (int at = 0; at < 16; at++)
            {
                final ByteBuffer buffer = ByteBuffer.allocate(16);
                for (int i = 0; i < 16; i++)
                {
                    buffer.put(i, (byte)'a');
                }
                buffer.put(at, (byte)value);
                final boolean allowed = value >= 0x20 && value != 0x7F || value == '\t';
                assertThat(WordScan.fieldEnd(buffer, 0, 16)).as("byte %d at %d", value, at)
                    .isEqualTo(allowed ? 16 : at);
                assertThat(WordScan.lineFeed(buffer, 0, 16)).as("byte %d at %d", value, at)
                    .isEqualTo(value == '\n' ? at : -1);
            }
        }
    }

    /**
     * Mostly letters with the bytes that matter (LF, CR, HTAB, SP, DEL, NUL, obs-text) sprinkled in, sometimes
     * anything; heap or direct, big- or little-endian.
     */
    private static ByteBuffer randomBuffer(final SplittableRandom random, final int round)
    {
        final int length = random.nextInt(40);
        final ByteBuffer buffer = (round % 2 == 0 ? ByteBuffer.allocate(length) : ByteBuffer.allocateDirect(length))
            .order(round % 4 < 2 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        final byte[] special = {'\n', '\r', '\t', ' ', 0x7F, 0, (byte)0x80, (byte)0xFF, 0x1F, 0x0B, 0x20, 0x7E};
        for (int i = 0; i < length; i++)
        {
            final int kind = random.nextInt(10);
            buffer.put(i, kind < 7 ? (byte)('a' + random.nextInt(26))
                : kind < 9 ? special[random.nextInt(special.length)] : (byte)random.nextInt(256));
        }
        return buffer;
    }
}
