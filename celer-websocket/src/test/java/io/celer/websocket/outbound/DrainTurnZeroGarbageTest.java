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

/**
 * After warm-up, a client that reads in small bursts, so that its queue fills, drops its oldest, and drains by
 * write-space events and by turns of a small drain budget, over and over, costs the server's reactor no allocation:
 * the turns, the shared segment pool and the lag transitions are all garbage-free. The burst reader sees its
 * messages in order, with gaps only where its queue dropped.
 */
class DrainTurnZeroGarbageTest
{
    private static final int WARM_UP = 60_000;
    private static final int MEASURED = 20_000;
    private static final int ROUNDS = 5;

    /** Closed after each test by JUnit, stopping its reactors. */
    @AutoClose
    private SlowClientRig rig;

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void aBurstReaderDrainingByTurnsAllocatesNothingOnTheReactor() throws Exception
    {
        rig = new SlowClientRig(SlowClientRig.smallDroppingQueue().drainBudget(3 * SlowClientRig.MESSAGE_LENGTH));
        final Publisher publisher = rig.publisher(256, 1);
        rig.connectFast(1);
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
            final long turnsBefore = rig.onServer(() -> rig.fanout.turnsGiven);
            long reactorLeast = Long.MAX_VALUE;
            long next = WARM_UP;
            for (int round = 0; round < ROUNDS && reactorLeast > 0; round++)
            {
                final long before = Allocations.allocatedBytes(rig.serverReactor.thread());
                SlowClientRig.publishPaced(publisher, fast, next, next + MEASURED);
                reactorLeast = Math.min(reactorLeast, Allocations.allocatedBytes(rig.serverReactor.thread()) - before);
                next += MEASURED;
            }
            final long reactorAllocated = reactorLeast;
            final long turns = rig.onServer(() -> rig.fanout.turnsGiven) - turnsBefore;
            final long dropped = rig.onServer(rig.fanout::dropped);

            assertThat(fast.outOfOrder).isZero();
            assertThat(turns).as("drain turns while measured").isPositive();
            assertThat(dropped).as("the burst reader's queue dropped").isPositive();
            assertThat(burstReceived.get()).as("the burst reader got messages").isPositive();
            assertThat(burstDisorder.get()).as("the burst reader's order").isNull();
            assertThat(reactorAllocated).as("reactor thread bytes over %d messages", MEASURED).isZero();
        }
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
}
