package io.celer.websocket.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.celer.test.TestThreads;
import io.celer.websocket.internal.Opcode;

/**
 * The back-pressured server's workload, scaled to a shared test machine: a producer thread broadcasts 250-byte
 * messages to forty clients that keep up and four that pause 200 ms before every socket read of at most 4 KiB. The
 * fast ones are written directly (they never queue) and get everything in order; the slow ones lag, drop their
 * oldest messages, catch up on the newest, and account for every message; no queue grows past its bounds.
 */
class FeedWorkloadTest
{
    private static final int FAST_CLIENTS = 40;
    private static final int SLOW_CLIENTS = 4;
    private static final int MESSAGE_LENGTH = 250;
    private static final int QUEUED = 100;
    private static final int MESSAGES = 3_000;
    private static final int BATCH = 10;

    /** Closed after each test by JUnit, stopping its reactors. */
    @AutoClose
    private SlowClientRig rig;

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void slowReadersDropTheirOldestWhileFastOnesGetEverythingDirectly() throws Exception
    {
        rig = new SlowClientRig(new OutboundConfig().maxQueuedMessages(QUEUED).maxQueuedBytes(QUEUED * MESSAGE_LENGTH)
            .maxMessageLength(MESSAGE_LENGTH).overflowPolicy(OverflowPolicy.DROP_OLDEST));
        final Publisher publisher = rig.publisher(64, 1);
        rig.connectFast(FAST_CLIENTS);
        final List<RawPeer> slow = new ArrayList<>();
        final List<CompletableFuture<List<Long>>> slowReceived = new ArrayList<>();
        try
        {
            for (int i = 0; i < SLOW_CLIENTS; i++)
            {
                final RawPeer peer = new RawPeer(rig.port, 4096, 200);
                slow.add(peer);
                // A thread each: the common pool has one thread on a two-core machine, where the slow clients
                // would read one after the other instead of together.
                slowReceived.add(CompletableFuture.supplyAsync(() -> readUntilLast(peer), TestThreads.pool()));
            }
            rig.awaitClients(FAST_CLIENTS + SLOW_CLIENTS);
            final List<Long> slowIds = new ArrayList<>(rig.openedIds);

            final byte[] filler = new byte[MESSAGE_LENGTH - 8];
            for (int sequence = 0; sequence < MESSAGES; sequence++)
            {
                publisher.claim(Thread::onSpinWait).toAll().payload().putLong(sequence).put(filler);
                if (sequence % BATCH == BATCH - 1)
                {
                    publisher.publish();
                    awaitFast(sequence + 1);
                }
            }

            for (final SequenceReader reader : rig.fast)
            {
                assertThat(reader.received).isEqualTo(MESSAGES);
                assertThat(reader.outOfOrder).isZero();
            }
            for (final long id : rig.fastIds)
            {
                final Outbox client = rig.onServer(() -> rig.fanout.client(id));
                assertThat(rig.onServer(client::queueStorage)).as("a fast client never queued").isZero();
                assertThat(rig.onServer(client::dropped)).isZero();
            }
            long slowDropped = 0;
            for (final long id : slowIds)
            {
                final Outbox client = rig.onServer(() -> rig.fanout.client(id));
                assertThat((long)rig.onServer(client::queueStorage))
                    .isLessThanOrEqualTo(rig.onServer(client::queueStorageBound));
                final long dropped = rig.onServer(client::dropped);
                assertThat(dropped).as("a slow client drops").isPositive();
                slowDropped += dropped;
            }
            assertThat(rig.onServer(rig.fanout::dropped)).isEqualTo(slowDropped);

            long slowGot = 0;
            for (final CompletableFuture<List<Long>> future : slowReceived)
            {
                final List<Long> received = future.get(2, TimeUnit.MINUTES);
                assertThat(received).isSorted().doesNotHaveDuplicates();
                assertThat(received.get(received.size() - 1)).as("the newest arrives").isEqualTo(MESSAGES - 1);
                slowGot += received.size();
            }
            assertThat(slowGot + rig.onServer(rig.fanout::dropped)).as("every message arrived or was counted dropped")
                .isEqualTo((long)SLOW_CLIENTS * MESSAGES);
            assertThat(rig.onServer(rig.fanout::laggingClients)).isZero();
        }
        finally
        {
            for (final RawPeer peer : slow)
            {
                peer.close();
            }
        }
    }

    private void awaitFast(final long count)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (final SequenceReader reader : rig.fast)
        {
            while (reader.received < count)
            {
                if (System.nanoTime() > deadline)
                {
                    throw new AssertionError("a fast client at " + reader.received + " of " + count);
                }
                Thread.onSpinWait();
            }
        }
    }

    /**
     * Reads frames, slowly, until the last message of the run.
     */
    private static List<Long> readUntilLast(final RawPeer peer)
    {
        final List<Long> received = new ArrayList<>();
        try
        {
            long sequence;
            do
            {
                final RawPeer.Frame frame = peer.readFrame();
                assertThat(frame.opcode()).isEqualTo(Opcode.BINARY);
                assertThat(frame.payload()).hasSize(MESSAGE_LENGTH);
                sequence = frame.sequence();
                received.add(sequence);
            }
            while (sequence < MESSAGES - 1);
            return received;
        }
        catch (final IOException ex)
        {
            throw new AssertionError("a slow client's read failed after " + received.size() + " messages", ex);
        }
    }
}
