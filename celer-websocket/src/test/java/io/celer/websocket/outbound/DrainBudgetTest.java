package io.celer.websocket.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.reactor.internal.Poller;
import io.celer.reactor.Reactor;
import io.celer.tcp.TcpConfig;
import io.celer.test.Await;
import io.celer.test.OnReactor;
import io.celer.test.Reactors;

/**
 * A client that reads again after a long lag gets its backlog one drain budget per reactor cycle, not all at once:
 * between two looks of the reactor's poller its queue shrinks by at most a budget (twice, when a write-space event
 * and a turn fall between the same two looks), so the other clients' messages wait for no more than that; the
 * backlog still arrives whole and in order.
 */
class DrainBudgetTest
{
    private static final int MESSAGE = 100;
    private static final int QUEUED = 4_000;
    private static final int BUDGET = 4 * 1024;
    private static final int BACKLOG = 2_000;

    @RegisterExtension
    final Reactors reactors = new Reactors();

    @Test
    void aBacklogDrainsOneBudgetPerCycleInOrder() throws Exception
    {
        final Reactor reactor = reactors.start("server");
        final Fanout fanout = new Fanout(new OutboundConfig().maxQueuedMessages(QUEUED)
            .maxQueuedBytes(QUEUED * MESSAGE).maxMessageLength(MESSAGE).drainBudget(BUDGET));
        // Socket buffers far larger than the budget: without it, one write-space event would move far more.
        final TcpConfig tcp = new TcpConfig().bindAddress("127.0.0.1").disconnectOnFullWriteBuffer(false)
            .writeBufferSize(16 * 1024).socketSendBufferSize(256 * 1024);
        final FanoutServer server = new FanoutServer(reactor, fanout, tcp);
        try (RawPeer peer = new RawPeer(server.port(), 256 * 1024))
        {
            final Outbox client = server.awaitOneClient();
            // Watched from the start: the kernel may take part of the backlog as soon as it forms, before the peer
            // reads, and every drain, that one too, must keep to the budget.
            final QueueWatch watch = new QueueWatch(client);
            reactor.call(() -> reactor.internals().addPoller(watch));
            final ByteBuffer message = ByteBuffer.allocate(MESSAGE);
            final long[] next = new long[1];
            Await.until(() -> "a backlog of " + BACKLOG + " messages", () -> OnReactor.get(reactor, () ->
            {
                for (int i = 0; i < 100; i++)
                {
                    message.clear().putLong(0, next[0]++);
                    client.sendBinary(message);
                    client.flush();
                }
                return client.queuedMessages() >= BACKLOG;
            }), Duration.ofSeconds(30));
            final long sent = OnReactor.get(reactor, () -> next[0]);
            assertThat(OnReactor.get(reactor, client::dropped)).isZero();

            for (long expected = 0; expected < sent; expected++)
            {
                assertThat(peer.readFrame().sequence()).isEqualTo(expected);
            }
            Await.until(() -> "the queue drained", () -> OnReactor.get(reactor, () -> client.queuedMessages() == 0),
                Duration.ofSeconds(30));
            reactor.call(() -> reactor.internals().removePoller(watch));

            final long largestStep = OnReactor.get(reactor, () -> watch.largestStep);
            assertThat(largestStep).as("queued bytes moved between two cycles").isPositive()
                .isLessThanOrEqualTo(2L * (BUDGET + MESSAGE));
        }
    }

    /**
     * Looks at a client's queue once per reactor cycle and keeps the largest drop between two looks.
     */
    private static final class QueueWatch implements Poller
    {
        private final Outbox client;
        private int last = -1;
        long largestStep;

        QueueWatch(final Outbox client)
        {
            this.client = client;
        }

        @Override
        public int poll()
        {
            final int queued = client.queuedBytes();
            if (last >= 0 && last - queued > largestStep)
            {
                largestStep = last - queued;
            }
            last = queued;
            return 0;
        }
    }
}
