package io.celer.websocket.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import io.celer.test.Await;
import io.celer.websocket.CloseCode;
import io.celer.websocket.internal.Opcode;

/**
 * Three well-behaved clients and one that stops reading after the handshake share a server over loopback: the fast
 * ones receive every message in order whatever the slow one does, the slow one's queue stays within its bounds and
 * its overflow policy decides what it gets later, and lagging is heard once per transition.
 */
class SlowClientTest
{
    private static final int QUEUED_MESSAGES = 30;
    private static final int FAST_CLIENTS = 3;
    private static final long MAX_MESSAGES = 20_000;

    /** Closed after each test by JUnit, stopping its reactors. */
    @AutoClose
    private SlowClientRig rig;
    private long slowId;

    /**
     * Starts the server, three fast clients and the slow one, whose id it keeps.
     */
    private RawPeer start(final OutboundConfig config, final LagListener listener) throws Exception
    {
        rig = new SlowClientRig(config, listener);
        rig.connectFast(FAST_CLIENTS);
        final RawPeer slow = rig.connectSlow(FAST_CLIENTS + 1);
        slowId = rig.openedIds.peek();
        return slow;
    }

    private static OutboundConfig bytesBound(final OverflowPolicy policy)
    {
        // The byte bound is the one reached: 30 messages of 100 bytes, well under the message bound.
        return new OutboundConfig().maxQueuedMessages(1_000).maxQueuedBytes(QUEUED_MESSAGES * 100)
            .maxMessageLength(SlowClientRig.MESSAGE_LENGTH).overflowPolicy(policy);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = OverflowPolicy.class, names = {"DROP_OLDEST", "DROP_NEWEST"})
    void aClientThatNeverReadsLosesMessagesByItsPolicyWhileTheOthersGetThemAll(final OverflowPolicy policy)
        throws Exception
    {
        try (RawPeer slow = start(bytesBound(policy), new LagListener()
        {
        }))
        {
            rig.broadcastUntil(() -> rig.fanout.client(slowId).queuedMessages() == QUEUED_MESSAGES, MAX_MESSAGES);
            final long fullAt = rig.sent();

            // In one reactor call nothing can drain the queue: the policy alone decides these.
            final long droppedBefore = rig.onServer(() -> rig.fanout.client(slowId).dropped());
            final int[] taken = rig.broadcast(QUEUED_MESSAGES);
            final long total = rig.sent();
            final int expectedTakers = policy == OverflowPolicy.DROP_OLDEST ? FAST_CLIENTS + 1 : FAST_CLIENTS;
            assertThat(taken).containsOnly(expectedTakers);
            final Outbox state = rig.onServer(() -> rig.fanout.client(slowId));
            assertThat(rig.onServer(state::dropped)).isEqualTo(droppedBefore + QUEUED_MESSAGES);
            assertThat(rig.onServer(state::queuedMessages)).isEqualTo(QUEUED_MESSAGES);
            assertThat((long)rig.onServer(state::queueStorage)).as("storage within the queue's bound")
                .isLessThanOrEqualTo(rig.onServer(state::queueStorageBound));
            rig.awaitFast();
            assertFastClientsGotEverything(total);
            final long dropped = rig.onServer(state::dropped);
            assertThat(rig.onServer(rig.fanout::dropped)).as("only the slow client dropped").isEqualTo(dropped);

            final List<Long> received = new ArrayList<>();
            for (long i = 0; i < total - dropped; i++)
            {
                final RawPeer.Frame frame = slow.readFrame();
                assertThat(frame.opcode()).isEqualTo(Opcode.BINARY);
                received.add(frame.sequence());
            }
            assertThat(received).as("in order, each once").isSorted().doesNotHaveDuplicates();
            final long firstRefused = rig.firstRefused();
            final List<Long> last = received.subList(received.size() - QUEUED_MESSAGES, received.size());
            if (policy == OverflowPolicy.DROP_OLDEST)
            {
                assertThat(firstRefused).as("drop-oldest refuses nothing").isEqualTo(-1);
                assertThat(last).as("the newest messages arrive last").containsExactlyElementsOf(range(fullAt, total));
            }
            else
            {
                assertThat(received).as("everything before the first refusal arrives")
                    .startsWith(range(0, firstRefused).toArray(new Long[0]));
                assertThat(received).as("the newest never arrive").doesNotContainAnyElementsOf(range(fullAt, total));
            }
            assertThat(rig.onServer(state::queuedMessages)).isZero();
            assertThat(rig.onServer(rig.fanout::laggingClients)).isZero();
        }
    }

    @ParameterizedTest(name = "closes with 1008")
    @EnumSource(value = OverflowPolicy.class, names = "CLOSE")
    void aClientThatNeverReadsIsClosedWithPolicyViolationWhileTheOthersGetEverything(final OverflowPolicy policy)
        throws Exception
    {
        try (RawPeer slow = start(bytesBound(policy), new LagListener()
        {
        }))
        {
            final Outbox state = rig.onServer(() -> rig.fanout.client(slowId));
            rig.broadcastUntil(() -> !state.socket().isOpen(), MAX_MESSAGES);
            final long overflow = rig.firstRefused();
            assertThat(rig.onServer(state::dropped)).as("the queue's messages and the one that overflowed it")
                .isEqualTo(QUEUED_MESSAGES + 1);
            assertThat(rig.onServer(rig.fanout::laggingClients)).as("closing ends the lag").isZero();

            final List<Long> received = new ArrayList<>();
            RawPeer.Frame frame;
            while ((frame = slow.readFrame()).opcode() == Opcode.BINARY)
            {
                received.add(frame.sequence());
            }
            assertThat(frame.opcode()).isEqualTo(Opcode.CLOSE);
            assertThat(frame.closeCode()).isEqualTo(CloseCode.POLICY_VIOLATION);
            assertThat(frame.closeReason()).isEqualTo(Outbox.CLOSE_REASON);
            assertThat(received).as("nothing lost before the overflow")
                .containsExactlyElementsOf(range(0, overflow - QUEUED_MESSAGES));
            slow.sendClose(CloseCode.POLICY_VIOLATION);
            assertThat(slow.atEndOfStream()).as("then the server closes").isTrue();
            rig.awaitClients(FAST_CLIENTS);

            rig.broadcast(100);
            rig.awaitFast();
            assertFastClientsGotEverything(rig.sent());
            assertThat(rig.onServer(rig.fanout::dropped)).isEqualTo(QUEUED_MESSAGES + 1);
        }
    }

    @ParameterizedTest(name = "lag threshold {0}")
    @ValueSource(ints = {1, 5})
    void lagStartsAndEndsOncePerTransition(final int threshold) throws Exception
    {
        final ConcurrentLinkedQueue<String> events = new ConcurrentLinkedQueue<>();
        final LagListener listener = new LagListener()
        {
            @Override
            public void lagStarted(final Outbox client)
            {
                events.add("started:" + client.id() + ":" + client.queuedMessages() + ":" + client.isLagging());
            }

            @Override
            public void lagEnded(final Outbox client)
            {
                events.add("ended:" + client.id() + ":" + client.queuedMessages() + ":" + client.isLagging());
            }
        };
        try (RawPeer slow = start(bytesBound(OverflowPolicy.DROP_NEWEST).lagThreshold(threshold), listener))
        {
            final Outbox state = rig.onServer(() -> rig.fanout.client(slowId));
            final List<String> expected = new ArrayList<>();
            for (int round = 1; round <= 2; round++)
            {
                rig.broadcastUntil(() -> state.queuedMessages() == QUEUED_MESSAGES, rig.sent() + MAX_MESSAGES);
                expected.add("started:" + slowId + ":" + threshold + ":true");
                assertThat(events).containsExactlyElementsOf(expected);
                assertThat(rig.onServer(state::isLagging)).isTrue();
                assertThat(rig.fanout.laggingClients()).isEqualTo(1);

                final int ends = round;
                slow.discardUntil(() -> events.size() == 2 * ends);
                expected.add("ended:" + slowId + ":0:false");
                assertThat(events).containsExactlyElementsOf(expected);
                assertThat(rig.onServer(state::isLagging)).isFalse();
                assertThat(rig.fanout.laggingClients()).isZero();
            }
            rig.awaitFast();
            assertFastClientsGotEverything(rig.sent());
        }
    }

    @Test
    void aMessageThatCouldNeverGoOutWholeIsRefusedLoudly()
    {
        // The largest message allowed is larger than the server's 16 KiB write buffer can take with a close frame.
        rig = new SlowClientRig(new OutboundConfig().maxMessageLength(20_000));
        rig.connectFast(1);
        final long id = rig.fastIds.get(0);
        rig.serverReactor.call(() ->
        {
            assertThatThrownBy(() -> rig.fanout.sendBinary(id, ByteBuffer.allocate(20_001)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("above the largest");
            assertThatThrownBy(() -> rig.fanout.sendBinary(id, ByteBuffer.allocate(16 * 1024 - 100)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("never fits");
            assertThat(rig.fanout.sendBinary(id, ByteBuffer.allocate(16 * 1024 - 200))).isTrue();
            assertThat(rig.fanout.sendBinary(Long.MIN_VALUE, ByteBuffer.allocate(8))).isFalse();
        });
        final SequenceReader reader = rig.fast.get(0);
        Await.until("the message that fits", () -> reader.received == 1, Duration.ofSeconds(30));
        assertThat(reader.outOfOrder).isZero();
    }

    private void assertFastClientsGotEverything(final long sent)
    {
        for (final SequenceReader reader : rig.fast)
        {
            assertThat(reader.received).as("a fast client's messages").isEqualTo(sent);
            assertThat(reader.outOfOrder).as("out of order or missing").isZero();
        }
    }

    private static List<Long> range(final long from, final long to)
    {
        final List<Long> list = new ArrayList<>();
        for (long i = from; i < to; i++)
        {
            list.add(i);
        }
        return list;
    }
}
