package io.celer.websocket.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorGroup;
import io.celer.tcp.TcpClient;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;
import io.celer.test.Await;
import io.celer.test.OnReactor;
import io.celer.test.Reactors;
import io.celer.test.TestThreads;
import io.celer.websocket.NoAllocation;
import io.celer.websocket.StubUpgrade;
import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketConfig;
import io.celer.websocket.WebSocketHandler;
import io.celer.websocket.internal.WebSocketSession;

/**
 * A publisher over a group reaches the clients of every member: each client gets every broadcast once, in its
 * producer's order, whatever reactor accepted it, and a message to one client reaches that client only.
 */
class GroupPublisherTest
{
    private static final int MEMBERS = 3;
    private static final int CLIENTS = 6;
    private static final int PRODUCERS = 2;
    private static final int PER_PRODUCER = 5_000;
    private static final int ADDRESSED = 500;
    private static final int LENGTH = 64;

    @RegisterExtension
    final Reactors reactors = new Reactors();

    @Test
    void broadcastsReachTheClientsOfEveryMemberInProducerOrder() throws Exception
    {
        final Rig rig = new Rig(MEMBERS, CLIENTS, 16, PRODUCERS);
        final ProducerWorkload workload = new ProducerWorkload(PRODUCERS, PER_PRODUCER, ADDRESSED, LENGTH);
        workload.produce(rig.publisher, rig.openedIds.peek());
        workload.assertDelivered(rig.readers);
        rig.assertNothingDropped();
    }

    @Test
    void aProducerWaitingForAFullLaneOfOneMemberNeitherLosesNorRepeatsOnAny() throws Exception
    {
        final Rig rig = new Rig(2, 2, 2, 1);
        // Member 1 stops running callbacks: its lane of two fills while member 0's has room, so each claim holds
        // a slot on member 0 while it waits for member 1.
        final CompletableFuture<Void> held = new CompletableFuture<>();
        rig.group.reactor(1).callAsync(held::join);
        final AtomicInteger claimed = new AtomicInteger();
        final CompletableFuture<Void> producer = CompletableFuture.runAsync(() ->
        {
            for (int i = 0; i < 200; i++)
            {
                rig.publisher.claim(Thread::onSpinWait).toAll().payload().put((byte)0).putLong(i);
                claimed.incrementAndGet();
                if ((i & 3) == 3)
                {
                    rig.publisher.publish();
                }
            }
            rig.publisher.publish();
        }, TestThreads.pool());
        Await.until(() -> "the producer waiting on the full lane, claimed " + claimed.get(),
            () -> claimed.get() >= 2, Duration.ofSeconds(30));
        Thread.sleep(100);
        assertThat(producer).as("a producer facing a full lane waits").isNotDone();
        held.complete(null);
        producer.get();
        for (final ProducerWorkload.PerProducerReader reader : rig.readers)
        {
            Await.until(() -> "messages at a client: " + reader.total, () -> reader.total >= 200,
                Duration.ofSeconds(30));
            assertThat(reader.total).isEqualTo(200);
            assertThat(reader.outOfOrder).isZero();
        }
        rig.assertNothingDropped();
    }

    @Test
    void aProducerPublishingOverAGroupAllocatesNothing() throws Exception
    {
        final Rig rig = new Rig(2, 2, 64, 1);
        final long[] sequence = {0};
        final Runnable one = () ->
        {
            rig.publisher.claim(Thread::onSpinWait).toAll().payload().put((byte)0).putLong(sequence[0]++);
            rig.publisher.publish();
        };
        assertThat(NoAllocation.leastAllocated(one, 20_000, 20_000)).as("producer thread bytes").isZero();
        for (final ProducerWorkload.PerProducerReader reader : rig.readers)
        {
            Await.until(() -> "messages at a client: " + reader.total, () -> reader.total == sequence[0],
                Duration.ofSeconds(60));
            assertThat(reader.outOfOrder).isZero();
        }
    }

    @Test
    void fanoutsOfDifferentLargestMessagesAreRefused()
    {
        final ReactorGroup group = reactors.startGroup("mixed", 2);
        final Fanout[] fanouts = {new Fanout(new OutboundConfig().maxMessageLength(64)),
            new Fanout(new OutboundConfig().maxMessageLength(128))};
        assertThatThrownBy(() -> new Publisher(group, i -> fanouts[i], 8, 1))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("same largest message");
    }

    /**
     * A TCP server on a group of reactors whose sessions send through a fanout per member, clients spread one by
     * one over the members, and a publisher over the group.
     */
    private final class Rig
    {
        final ReactorGroup group;
        final Fanout[] fanouts;
        final ConcurrentLinkedQueue<Long> openedIds = new ConcurrentLinkedQueue<>();
        final List<ProducerWorkload.PerProducerReader> readers = new ArrayList<>();
        final Publisher publisher;

        Rig(final int members, final int clients, final int laneCapacity, final int producers)
        {
            group = reactors.startGroup("feed", members);
            // Bounds above all that is sent: whatever the scheduling, nothing may be dropped here.
            final OutboundConfig config = new OutboundConfig().maxQueuedMessages(50_000).maxQueuedBytes(8 << 20)
                .maxMessageLength(LENGTH);
            fanouts = new Fanout[members];
            for (int i = 0; i < members; i++)
            {
                fanouts[i] = new Fanout(config);
            }
            final Set<String> acceptedOn = ConcurrentHashMap.newKeySet();
            final WebSocketHandler application = new WebSocketHandler()
            {
                @Override
                public void opened(final WebSocket socket)
                {
                    openedIds.add(socket.connection().id());
                    acceptedOn.add(Thread.currentThread().getName());
                }
            };
            final TcpConfig tcp = new TcpConfig().bindAddress("127.0.0.1").disconnectOnFullWriteBuffer(false)
                .acceptSpread(TcpConfig.AcceptSpread.LEAST_LOADED);
            final int port = new TcpServer(group, 0, tcp, reactor -> new StubUpgrade(true,
                () -> WebSocketSession.server(new WebSocketConfig(), fanouts[group.indexOf(reactor)].handler(
                    application)))).open().port();
            publisher = new Publisher(group, i -> fanouts[i], laneCapacity, producers);

            final Reactor clientReactor = reactors.start("client");
            for (int i = 0; i < clients; i++)
            {
                final ProducerWorkload.PerProducerReader reader = new ProducerWorkload.PerProducerReader();
                readers.add(reader);
                new TcpClient(clientReactor, "127.0.0.1", port, new TcpConfig(),
                    new StubUpgrade(false, () -> WebSocketSession.client(new WebSocketConfig(), reader))).open();
                // One at a time, so that the least loaded member takes each next client.
                final int opened = i + 1;
                Await.until(() -> "clients open: " + openedIds.size(), () -> openedIds.size() == opened,
                    Duration.ofSeconds(30));
            }
            assertThat(acceptedOn).as("members holding clients").hasSize(members);
        }

        void assertNothingDropped()
        {
            for (int i = 0; i < fanouts.length; i++)
            {
                final Fanout fanout = fanouts[i];
                assertThat(OnReactor.get(group.reactor(i), fanout::dropped)).isZero();
            }
        }
    }
}
