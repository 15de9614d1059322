package io.celer.websocket.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.celer.test.Allocations;

/**
 * After warm-up, publishing from a producer thread to a fast client and to one that never reads (its queue full and
 * dropping its oldest message for each new one) allocates nothing on the producer thread nor on the server's
 * reactor thread.
 */
class OutboundZeroGarbageTest
{
    private static final int WARM_UP = 60_000;
    private static final int MEASURED = 20_000;
    private static final int ROUNDS = 5;

    /** Closed after each test by JUnit, stopping its reactors. */
    @AutoClose
    private SlowClientRig rig;

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void publishingToAFastAndADroppingClientAllocatesNothing() throws Exception
    {
        rig = new SlowClientRig(SlowClientRig.smallDroppingQueue());
        final Publisher publisher = rig.publisher(256, 1);
        rig.connectFast(1);
        final SequenceReader fast = rig.fast.get(0);
        try (RawPeer slow = rig.connectSlow(2))
        {
            final long slowId = rig.openedIds.peek();
            final Outbox slowState = rig.onServer(() -> rig.fanout.client(slowId));

            SlowClientRig.publishPaced(publisher, fast, 0, WARM_UP);
            assertThat(rig.onServer(slowState::dropped)).as("the slow client drops by warm-up's end").isPositive();
            final long droppedBefore = rig.onServer(slowState::dropped);
            // The least of a few rounds: a compiler tier change may allocate once, a per-message cost shows in all.
            long reactorLeast = Long.MAX_VALUE;
            long producerLeast = Long.MAX_VALUE;
            long next = WARM_UP;
            for (int round = 0; round < ROUNDS && (reactorLeast > 0 || producerLeast > 0); round++)
            {
                final long reactorBefore = Allocations.allocatedBytes(rig.serverReactor.thread());
                final long producerBefore = Allocations.currentThreadAllocatedBytes();
                SlowClientRig.publishPaced(publisher, fast, next, next + MEASURED);
                producerLeast = Math.min(producerLeast, Allocations.currentThreadAllocatedBytes() - producerBefore);
                reactorLeast = Math.min(reactorLeast,
                    Allocations.allocatedBytes(rig.serverReactor.thread()) - reactorBefore);
                next += MEASURED;
            }
            final long producerAllocated = producerLeast;
            final long reactorAllocated = reactorLeast;

            assertThat(fast.outOfOrder).isZero();
            assertThat(rig.onServer(slowState::dropped) - droppedBefore).as("drops while measured")
                .isGreaterThanOrEqualTo(next - WARM_UP - 1_000);
            assertThat((long)rig.onServer(slowState::queueStorage))
                .isLessThanOrEqualTo(rig.onServer(slowState::queueStorageBound));
            assertThat(producerAllocated).as("producer thread bytes over %d messages", MEASURED).isZero();
            assertThat(reactorAllocated).as("reactor thread bytes over %d messages", MEASURED).isZero();

            // Once it reads, the slow client gets the rest and stops lagging.
            slow.discardUntil(() -> rig.onServer(slowState::queuedMessages) == 0);
            assertThat(rig.onServer(slowState::isLagging)).isFalse();
        }
    }
}
