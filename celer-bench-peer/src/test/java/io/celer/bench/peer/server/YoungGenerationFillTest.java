package io.celer.bench.peer.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

import org.junit.jupiter.api.Test;

class YoungGenerationFillTest
{
    @Test
    void fillsTheEdenUntilACollectionEmptiesIt()
    {
        final long collectionsBefore = collections();

        final String line = YoungGenerationFill.fill();

        assertThat(line).startsWith(YoungGenerationFill.PREFIX).contains("collected=true");
        assertThat(collections()).as("collections").isGreaterThan(collectionsBefore);
        final long filled = Long.parseLong(line.replaceAll(".*filled_bytes=(\\d+).*", "$1"));
        assertThat(filled).as("bytes filled").isPositive().isLessThanOrEqualTo(2 * Runtime.getRuntime().maxMemory());
    }

    private static long collections()
    {
        long sum = 0;
        for (final GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans())
        {
            sum += collector.getCollectionCount();
        }
        return sum;
    }
}
