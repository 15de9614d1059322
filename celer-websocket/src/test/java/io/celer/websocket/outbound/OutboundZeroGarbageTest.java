package io.celer.websocket.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.celer.test.Allocations;
import io.celer.test.SteadyAllocation;
import io.celer.websocket.NoAllocation;

/**
 * After warm-up, publishing from a producer thread to a fast client and to one that never reads (its queue full and
 * dropping its oldest message for each new one) allocates nothing on the producer thread nor on the server's
 * reactor thread. Nor does a client that reads in small bursts, so that its queue fills, drops its oldest, and
 * drains by write-space events and by turns of a small drain budget, over and over: the turns, the shared segment
 * pool and the lag transitions are all garbage-free. The burst reader sees its messages in order, with gaps only
 * where its queue dropped.
 */
class OutboundZeroGarbageTest
{
    private static final int WARM_UP = 60_000;
    private static final int MEASURED = 20_000;
    private static final int ROUNDS = 5;
    private static final int BURST_ROUNDS = 20;

    /** Closed after each test by JUnit, stopping its reactors. */
    @AutoClose
    private SlowClientRig rig;

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void publishingToAFastAndADroppingClientAllocatesNothing() throws Exception
    {
        final Publisher publisher = start(SlowClientRig.smallDroppingQueue());
        final SequenceReader fast = rig.fast.get(0);
        try (RawPeer slow = rig.connectSlow(2))
        {
            final long slowId = rig.openedIds.peek();
            final Outbox slowState = rig.onServer(() -> rig.fanout.client(slowId));

            SlowClientRig.publishPaced(publisher, fast, 0, WARM_UP);
            assertThat(rig.onServer(slowState::dropped)).as("the slow client drops by warm-up's end").isPositive();
            final long[] next = {WARM_UP};
            SteadyAllocation.untilTheJitIsQuiet(
                () -> next[0] = publish(publisher, fast, next[0], NoAllocation.settling(MEASURED)));
            final long droppedBefore = rig.onServer(slowState::dropped);
            final long measuredFrom = next[0];
            // The least of a few rounds: a compiler tier change may allocate once, a per-message cost shows in all.
            long reactorLeast = Long.MAX_VALUE;
            long producerLeast = Long.MAX_VALUE;
            for (int round = 0; round < ROUNDS && (reactorLeast > 0 || producerLeast > 0); round++)
            {
                final long reactorBefore = Allocations.allocatedBytes(rig.serverReactor.thread());
                final long producerBefore = Allocations.currentThreadAllocatedBytes();
                next[0] = publish(publisher, fast, next[0], MEASURED);
                producerLeast = Math.min(producerLeast, Allocations.currentThreadAllocatedBytes() - producerBefore);
                reactorLeast = Math.min(reactorLeast,
                    Allocations.allocatedBytes(rig.serverReactor.thread()) - reactorBefore);
            }
            final long producerAllocated = producerLeast;
            final long reactorAllocated = reactorLeast;

            assertThat(fast.outOfOrder).isZero();
            assertThat(rig.onServer(slowState::dropped) - droppedBefore).as("drops while measured")
                .isGreaterThanOrEqualTo(next[0] - measuredFrom - 1_000);
            assertThat((long)rig.onServer(slowState::queueStorage))
                .isLessThanOrEqualTo(rig.onServer(slowState::queueStorageBound));
            assertThat(producerAllocated).as("producer thread bytes over %d messages", MEASURED).isZero();
            assertThat(reactorAllocated).as("reactor thread bytes over %d messages", MEASURED).isZero();

            // Once it reads, the slow client gets the rest and stops lagging.
            slow.discardUntil(() -> rig.onServer(slowState::queuedMessages) == 0);
            assertThat(rig.onServer(slowState::isLagging)).isFalse();
        }
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void aBurstReaderDrainingByTurnsAllocatesNothingOnTheReactor() throws Exception
    {
        final Publisher publisher =
            start(SlowClientRig.smallDroppingQueue().drainBudget(3 * SlowClientRig.MESSAGE_LENGTH));
        final SequenceReader fast = rig.fast.get(0);
        final AtomicLong burstReceived = new AtomicLong();
        final AtomicReference<String> burstDisorder = new AtomicReference<>();
        try (RawPeer burst = new RawPeer(rig.port, 4096, 1))
        {
            rig.awaitClients(2);
            final Thread reader = new Thread(() -> readInOrder(burst, burstReceived, burstDisorder), "burst-reader");
            reader.setDaemon(true);
            reader.start();

            SlowClientRig.publishPaced(publisher, fast, 0, WARM_UP);
            final long[] next = {WARM_UP};
            SteadyAllocation.untilTheJitIsQuiet(
                () -> next[0] = publish(publisher, fast, next[0], NoAllocation.settling(MEASURED)));
            final long turnsBefore = rig.onServer(() -> rig.fanout.turnsGiven);
            long reactorLeast = Long.MAX_VALUE;
            long turns = 0;
            // On a loaded machine the burst reader may not run during a round, and then no turn happens in it:
            // measure until some round allocated nothing and turns were given, within a bound.
            for (int round = 0; round < BURST_ROUNDS && (reactorLeast > 0 || turns == 0); round++)
            {
                final long before = Allocations.allocatedBytes(rig.serverReactor.thread());
                next[0] = publish(publisher, fast, next[0], MEASURED);
                reactorLeast = Math.min(reactorLeast, Allocations.allocatedBytes(rig.serverReactor.thread()) - before);
                turns = rig.onServer(() -> rig.fanout.turnsGiven) - turnsBefore;
            }
            final long reactorAllocated = reactorLeast;
            final long dropped = rig.onServer(rig.fanout::dropped);

            assertThat(fast.outOfOrder).isZero();
            assertThat(turns).as("drain turns while measured").isPositive();
            assertThat(dropped).as("the burst reader's queue dropped").isPositive();
            assertThat(burstReceived.get()).as("the burst reader got messages").isPositive();
            assertThat(burstDisorder.get()).as("the burst reader's order").isNull();
            assertThat(reactorAllocated).as("reactor thread bytes over %d messages", MEASURED).isZero();
        }
    }

    /** Publishes a number of messages numbered from {@code from}; returns the number after the last. */
    private static long publish(final Publisher publisher, final SequenceReader fast, final long from,
        final int count)
    {
        SlowClientRig.publishPaced(publisher, fast, from, from + count);
        return from + count;
    }

    private static void readInOrder(final RawPeer peer, final AtomicLong received,
        final AtomicReference<String> disorder)
    {
        long last = -1;
        try
        {
            while (true)
            {
                final long sequence = peer.readFrame().sequence();
                if (sequence <= last)
                {
                    disorder.compareAndSet(null, sequence + " after " + last);
                }
                last = sequence;
                received.incrementAndGet();
            }
        }
        catch (final IOException ex)
        {
            // The test closed the peer.
        }
    }

    /** A server with the queues configured so, a fast client, and a publisher to all from this thread. */
    private Publisher start(final OutboundConfig config)
    {
        rig = new SlowClientRig(config);
        final Publisher publisher = rig.publisher(256, 1);
        rig.connectFast(1);
        return publisher;
    }
}
