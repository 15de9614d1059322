package io.celer.websocket.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * Slow clients share one capped pool of queue storage: together they never hold more than the cap, whatever their
 * own bounds, every segment is either in a queue or free, their losses are counted, and the fast client, which
 * never queues, still gets everything in order.
 */
class SharedStorageTest
{
    private static final int SEGMENT = 1_024;
    private static final int CAP = 3 * SEGMENT;

    /** Closed after each test by JUnit, stopping its reactors. */
    @AutoClose
    private SlowClientRig rig;

    @Test
    void slowClientsTogetherStayWithinTheCapAndTheFastOneLosesNothing() throws Exception
    {
        rig = new SlowClientRig(new OutboundConfig().maxQueuedMessages(1_000).maxQueuedBytes(20_000)
            .maxMessageLength(SlowClientRig.MESSAGE_LENGTH).segmentSize(SEGMENT).maxTotalQueueStorage(CAP)
            .overflowPolicy(OverflowPolicy.DROP_OLDEST));
        rig.connectFast(1);
        try (RawPeer first = rig.connectSlow(2); RawPeer second = rig.connectSlow(3))
        {
            final long[] slowIds = rig.openedIds.stream().mapToLong(Long::longValue).toArray();
            assertThat(slowIds).hasSize(2);
            final Outbox a = rig.onServer(() -> rig.fanout.client(slowIds[0]));
            final Outbox b = rig.onServer(() -> rig.fanout.client(slowIds[1]));

            // Both sockets fill, then both queues compete for the pool's three segments.
            rig.broadcastUntil(() -> a.dropped() > 0 && b.dropped() > 0, 200_000);
            rig.broadcast(2_000);
            rig.awaitFast();

            assertThat(rig.onServer(rig.fanout::queueStorage)).as("storage allocated").isEqualTo(CAP);
            assertThat(rig.onServer(() -> (long)a.queueStorage() + b.queueStorage() +
                rig.fanout.freeQueueStorage())).as("held by the queues plus free").isEqualTo(CAP);
            assertThat(rig.onServer(() -> a.queuedBytes() + b.queuedBytes())).as("queued within the cap")
                .isLessThanOrEqualTo(CAP);
            assertThat(rig.onServer(rig.fanout::dropped)).isEqualTo(rig.onServer(() -> a.dropped() + b.dropped()));
            final SequenceReader fast = rig.fast.get(0);
            assertThat(fast.received).isEqualTo(rig.sent());
            assertThat(fast.outOfOrder).isZero();
        }
    }
}
