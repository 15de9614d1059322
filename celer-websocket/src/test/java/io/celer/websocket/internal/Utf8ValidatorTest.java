package io.celer.websocket.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The validator accepts exactly well-formed UTF-8, however the bytes are split, and fails at the first bad byte.
 */
class Utf8ValidatorTest
{
    static Stream<String> valid()
    {
        return Stream.of("", "41", "c2a9", "c2a0c2bf", "dfbf", "e0a080", "e282ac", "ed9fbf", "ee8080", "efbfbf",
            "f0908080", "f48fbfbf", "f3bfbfbf",
            "48656c6c6f2d c2b5 40 c39f c3b6 c3a4 c3bc c3a0 c3a1 2d 5554462d382121".replace(" ", ""),
            "cebae1bdb9cf83cebcceb5", "3031323334353637383961626364656667 e282ac 7a".replace(" ", ""));
    }

    static Stream<String> invalid()
    {
        return Stream.of("80", "bf", "c0", "c1", "c080", "c1bf", "c2", "c241", "e0", "e080", "e08080",
            "e09fbf", "eda080", "edbfbf", "e282", "e28241", "f0", "f08f8080", "f4908080", "f5808080", "f8",
            "fe", "ff", "f0908080 80".replace(" ", ""), "cebae1bdb9cf83cebcceb5eda080656469746564",
            "41424344454647484980", "4142434445464748494a4b4c4d4e4f50c0");
    }

    @ParameterizedTest
    @MethodSource("valid")
    void acceptsValidSplitAtEveryBoundary(final String hex)
    {
        final byte[] bytes = HexFormat.of().parseHex(hex);
        assertThat(jdkAccepts(bytes)).as("the JDK agrees").isTrue();
        for (int split = 0; split <= bytes.length; split++)
        {
            final Utf8Validator validator = new Utf8Validator();
            assertThat(validator.update(ByteBuffer.wrap(bytes), 0, split)).isTrue();
            assertThat(validator.update(ByteBuffer.wrap(bytes), split, bytes.length)).isTrue();
            assertThat(validator.isComplete()).isTrue();
        }
        final Utf8Validator byByte = new Utf8Validator();
        for (final byte b : bytes)
        {
            assertThat(byByte.update(b)).isTrue();
        }
        assertThat(byByte.isComplete()).isTrue();
    }

    @ParameterizedTest
    @MethodSource("invalid")
    void rejectsInvalidSplitAtEveryBoundaryAtTheFirstBadByte(final String hex)
    {
        final byte[] bytes = HexFormat.of().parseHex(hex);
        assertThat(jdkAccepts(bytes)).as("the JDK agrees").isFalse();
        final int firstBad = firstBadByte(bytes);
        for (int split = 0; split <= bytes.length; split++)
        {
            final Utf8Validator validator = new Utf8Validator();
            final boolean first = validator.update(ByteBuffer.wrap(bytes), 0, split);
            final boolean second = first && validator.update(ByteBuffer.wrap(bytes), split, bytes.length);
            final boolean valid = first && second && validator.isComplete();
            assertThat(valid).as("split at %d", split).isFalse();
            // Fail fast: the half holding the first bad byte fails; a truncated sequence fails only at the end.
            if (firstBad >= 0)
            {
                assertThat(firstBad < split ? first : second).as("split at %d", split).isFalse();
                assertThat(validator.isInvalid()).isTrue();
            }
        }
    }

    @Test
    void failsFastAtTheFirstInvalidByteOfAStream()
    {
        final Utf8Validator validator = new Utf8Validator();
        assertThat(validator.update((byte)0xCE)).isTrue();
        assertThat(validator.update((byte)0xBA)).isTrue();
        assertThat(validator.update((byte)0xED)).isTrue();
        assertThat(validator.update((byte)0xA0)).as("a surrogate is refused at its second byte").isFalse();
        assertThat(validator.update((byte)0x41)).as("and stays refused").isFalse();
        validator.reset();
        assertThat(validator.update((byte)0x41)).isTrue();
    }

    @Test
    void agreesWithTheJdkOnRandomBytesInDirectBuffersAndArrays()
    {
        final SplittableRandom random = new SplittableRandom(7);
        for (int round = 0; round < 20_000; round++)
        {
            final byte[] bytes = new byte[random.nextInt(40)];
            for (int i = 0; i < bytes.length; i++)
            {
                // Mostly ASCII with some high bytes, so that both outcomes occur often.
                bytes[i] = (byte)(random.nextInt(10) < 7 ? random.nextInt(0x80) : 0x80 + random.nextInt(0x80));
            }
            final ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
            final Utf8Validator validator = new Utf8Validator();
            assertThat(validator.isValid(direct, 0, bytes.length)).as(HexFormat.of().formatHex(bytes))
                .isEqualTo(jdkAccepts(bytes));
            validator.reset();
            assertThat(validator.update(bytes, 0, bytes.length) && validator.isComplete()).isEqualTo(jdkAccepts(bytes));
        }
    }

    @Test
    void everyCodePointEncodedByTheJdkIsAccepted()
    {
        final Utf8Validator validator = new Utf8Validator();
        for (int cp = 0; cp <= 0x10FFFF; cp++)
        {
            if (cp >= 0xD800 && cp <= 0xDFFF)
            {
                continue;
            }
            final byte[] bytes = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
            validator.reset();
            assertThat(validator.update(bytes, 0, bytes.length) && validator.isComplete()).isTrue();
        }
    }

    private static int firstBadByte(final byte[] bytes)
    {
        final Utf8Validator validator = new Utf8Validator();
        for (int i = 0; i < bytes.length; i++)
        {
            if (!validator.update(bytes[i]))
            {
                return i;
            }
        }
        return -1;
    }

    static boolean jdkAccepts(final byte[] bytes)
    {
        try
        {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
            return true;
        }
        catch (final CharacterCodingException ex)
        {
            return false;
        }
    }
}
