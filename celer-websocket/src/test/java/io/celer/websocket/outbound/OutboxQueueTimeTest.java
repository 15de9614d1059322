package io.celer.websocket.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import io.celer.counters.CounterValue;
import io.celer.counters.Counters;
import io.celer.counters.HistogramSnapshot;
import io.celer.test.Await;

/**
 * The outbox's queue time, read as {@code ./celer stat} reads it: messages queued for a client that stopped
 * reading are timed from their queueing until they leave the queue for the socket once it reads again.
 */
class OutboxQueueTimeTest
{
    private static final int QUEUED = 30;
    private static final long WAIT_MILLIS = 300;

    @AutoClose
    private SlowClientRig rig;

    @Test
    void queuedMessagesAreTimedUntilTheyLeaveTheQueue() throws Exception
    {
        rig = new SlowClientRig(new OutboundConfig().maxQueuedMessages(QUEUED).maxQueuedBytes(QUEUED * 100)
            .maxMessageLength(SlowClientRig.MESSAGE_LENGTH).overflowPolicy(OverflowPolicy.DROP_NEWEST));
        try (RawPeer slow = rig.connectSlow(1))
        {
            final long slowId = rig.openedIds.peek();
            rig.broadcastUntil(() -> rig.fanout.client(slowId).queuedMessages() == QUEUED, 20_000);
            assertThat(waitedLong()).as("none left the queue yet").isZero();
            Thread.sleep(WAIT_MILLIS);
            slow.discardUntil(() -> rig.onServer(() -> rig.fanout.client(slowId).queuedMessages()) == 0);
            Await.until("the queued messages timed", () -> waitedLong() == QUEUED);
            assertThat(queueTime().count()).isGreaterThanOrEqualTo(QUEUED);
        }
    }

    /** Messages timed in buckets wholly above 80 % of the wait: those that waited it, and no others. */
    private long waitedLong()
    {
        final HistogramSnapshot h = queueTime();
        final long floor = TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS) * 8 / 10;
        long count = 0;
        for (int i = 1; i < h.buckets(); i++)
        {
            if (h.bucketUpperBound(i - 1) >= floor)
            {
                count += h.bucketCount(i);
            }
        }
        return count;
    }

    private static HistogramSnapshot queueTime()
    {
        return Counters.process().reader().snapshot().stream()
            .filter(v -> v.scope().equals("server") && v.name().equals("ws.outbox.queue.time"))
            .map(CounterValue::histogram).findFirst().orElseThrow();
    }
}
