package io.celer.http.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * Matching a path against a route on the request's bytes agrees with comparing the two after normalizing
 * both (RFC 3986, 6.2.2), and decoding does not depend on how a path was encoded, over many random paths.
 */
class PercentCodingTest
{
    private static final String[] PIECES = {"a", "b", "/", "~", "%41", "%61", "%62", "%2F", "%2f", "%7E", "%7e",
        "%20", "%3F", "%C3%A9", "%c3%a9"};

    @Test
    void matchingOnBytesAgreesWithComparingNormalizedPaths()
    {
        final SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < 20_000; i++)
        {
            final String path = randomPath(random);
            final String route = randomPath(random);
            final byte[] normalizedRoute = PercentCoding.normalize(route);
            final String canonicalPath = new String(PercentCoding.normalize(path), StandardCharsets.US_ASCII);
            final String canonicalRoute = new String(normalizedRoute, StandardCharsets.US_ASCII);
            final ByteBuffer buffer = ByteBuffer.wrap(path.getBytes(StandardCharsets.US_ASCII));
            final int covered = PercentCoding.match(buffer, 0, buffer.limit(), normalizedRoute);
            assertThat(covered == buffer.limit()).as("%s exactly %s", path, route)
                .isEqualTo(canonicalPath.equals(canonicalRoute));
            assertThat(covered >= 0).as("%s starts with %s", path, route)
                .isEqualTo(canonicalPath.startsWith(canonicalRoute));
        }
    }

    @Test
    void decodingGivesTheSameBytesHoweverThePathWasEncoded()
    {
        final SplittableRandom random = new SplittableRandom(13);
        final byte[] raw = new byte[64];
        final byte[] normalized = new byte[64];
        for (int i = 0; i < 20_000; i++)
        {
            final String path = randomPath(random);
            final ByteBuffer asSent = ByteBuffer.wrap(path.getBytes(StandardCharsets.US_ASCII));
            final ByteBuffer asNormalized = ByteBuffer.wrap(PercentCoding.normalize(path));
            final int n = PercentCoding.decode(asSent, 0, asSent.limit(), raw);
            final int m = PercentCoding.decode(asNormalized, 0, asNormalized.limit(), normalized);
            assertThat(Arrays.copyOf(raw, n)).as(path).isEqualTo(Arrays.copyOf(normalized, m));
        }
        final ByteBuffer path = ByteBuffer.wrap("/a%2Fb".getBytes(StandardCharsets.US_ASCII));
        assertThat(PercentCoding.decode(path, 0, path.limit(), new byte[4])).as("/a/b").isEqualTo(4);
        assertThat(PercentCoding.decode(path, 0, path.limit(), new byte[3])).isEqualTo(-1);
    }

    private static String randomPath(final SplittableRandom random)
    {
        final StringBuilder path = new StringBuilder("/");
        final int pieces = random.nextInt(5);
        for (int i = 0; i < pieces; i++)
        {
            path.append(PIECES[random.nextInt(PIECES.length)]);
        }
        return path.toString();
    }
}
