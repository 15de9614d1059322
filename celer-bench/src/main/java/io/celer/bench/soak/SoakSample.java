package io.celer.bench.soak;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import io.celer.bench.peer.ResidentSet;

/**
 * The process at one moment: resident set, heap after a full collection, open descriptors, collections so far,
 * and the soak's counts.
 *
 * @param seconds       since the soak started.
 * @param rss           resident bytes.
 * @param heapAfterGc   heap bytes in use right after {@code System.gc()}.
 * @param descriptors   open file descriptors.
 * @param collections   garbage collections so far, every collector's.
 * @param serverClients WebSocket clients on the feed server.
 * @param messages      feed messages the clients read.
 * @param dropped       feed messages the server dropped for slow clients.
 * @param httpResponses HTTP responses read.
 */
record SoakSample(long seconds, long rss, long heapAfterGc, long descriptors, long collections, long serverClients,
    long messages, long dropped, long httpResponses)
{
    /**
     * Takes a sample, after a full collection.
     */
    static SoakSample take(final long seconds, final long serverClients, final long dropped, final SoakTally tally)
    {
        System.gc();
        final long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        long collections = 0;
        for (final GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans())
        {
            collections += Math.max(0, collector.getCollectionCount());
        }
        return new SoakSample(seconds, ResidentSet.bytes(), heap, openDescriptors(), collections,
            serverClients, tally.messages.get(), dropped, tally.httpResponses.get());
    }

    private static long openDescriptors()
    {
        try (Stream<Path> open = Files.list(Path.of("/proc/self/fd")))
        {
            return open.count();
        }
        catch (final IOException | RuntimeException ex)
        {
            return -1; // not Linux
        }
    }

    /**
     * The median of each figure over a few samples, which a single collection's timing does not sway.
     */
    static SoakSample median(final java.util.List<SoakSample> samples)
    {
        final int n = samples.size();
        return new SoakSample(samples.get(n - 1).seconds(),
            median(samples, SoakSample::rss), median(samples, SoakSample::heapAfterGc),
            median(samples, SoakSample::descriptors), samples.get(n - 1).collections(),
            median(samples, SoakSample::serverClients), samples.get(n - 1).messages(), samples.get(n - 1).dropped(),
            samples.get(n - 1).httpResponses());
    }

    private static long median(final java.util.List<SoakSample> samples,
        final java.util.function.ToLongFunction<SoakSample> figure)
    {
        return samples.stream().mapToLong(figure).sorted().skip(samples.size() / 2).findFirst().orElse(-1);
    }
}
