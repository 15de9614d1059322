package io.celer.websocket.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import io.celer.test.Await;
import io.celer.test.TestThreads;
import io.celer.websocket.Utf8Text;
import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketHandler;

/**
 * Producer threads publish through the reactor's garbage-free lanes, to every client and to one by id; each client
 * gets each producer's messages in that producer's order, and only its own addressed ones.
 */
class PublisherTest
{
    private static final int PRODUCERS = 2;
    private static final int CLIENTS = 3;
    private static final int PER_PRODUCER = 5_000;
    private static final int ADDRESSED = 1_000;
    private static final byte ADDRESSED_MARK = 9;

    /** Closed after each test by JUnit, stopping its reactors. */
    @AutoClose
    private SlowClientRig rig;

    /**
     * Counts messages per producer (the first byte), checking each producer's numbering (the long after it).
     */
    private static final class PerProducerReader implements WebSocketHandler
    {
        private final long[] expected = new long[16];
        final long[] received = new long[16];
        volatile long total;
        volatile long outOfOrder;

        @Override
        public void binary(final WebSocket socket, final ByteBuffer message)
        {
            final int producer = message.get(message.position());
            final long sequence = message.getLong(message.position() + 1);
            if (sequence != expected[producer])
            {
                outOfOrder = outOfOrder + 1;
            }
            expected[producer] = sequence + 1;
            received[producer]++;
            total = total + 1;
        }
    }

    @Test
    void producersReachEveryClientInTheirOwnOrderAndAddressedMessagesOnlyTheirClient() throws Exception
    {
        // Bounds above all that is sent: whatever the scheduling, nothing may be dropped here.
        rig = new SlowClientRig(new OutboundConfig().maxQueuedMessages(20_000).maxQueuedBytes(4 << 20)
            .maxMessageLength(SlowClientRig.MESSAGE_LENGTH));
        final Publisher publisher = rig.publisher(64, PRODUCERS);
        final List<PerProducerReader> readers = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++)
        {
            final PerProducerReader reader = new PerProducerReader();
            readers.add(reader);
            rig.connect(reader);
        }
        rig.awaitClients(CLIENTS);
        final long addressedId = rig.openedIds.peek();

        final List<CompletableFuture<Void>> producers = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++)
        {
            final byte producer = (byte)p;
            producers.add(CompletableFuture.runAsync(() ->
            {
                for (int i = 0; i < PER_PRODUCER; i++)
                {
                    final Publication all = publisher.claim(Thread::onSpinWait).toAll();
                    all.payload().put(producer).putLong(i).put(new byte[SlowClientRig.MESSAGE_LENGTH - 9]);
                    if (producer == 0 && i < ADDRESSED)
                    {
                        final Publication one = publisher.claim(Thread::onSpinWait).to(addressedId).binary();
                        one.payload().put(ADDRESSED_MARK).putLong(i);
                    }
                    if ((i & 15) == 15)
                    {
                        publisher.publish();
                    }
                }
                publisher.publish();
            }, TestThreads.pool())); // a thread each: the common pool may have a single one, and run them in turn
        }
        CompletableFuture.allOf(producers.toArray(new CompletableFuture<?>[0])).get();

        final long broadcast = (long)PRODUCERS * PER_PRODUCER;
        for (final PerProducerReader reader : readers)
        {
            Await.until(() -> "messages at a client: " + reader.total,
                () -> reader.total == broadcast || reader.total == broadcast + ADDRESSED, Duration.ofSeconds(60));
        }
        int addressedClients = 0;
        for (final PerProducerReader reader : readers)
        {
            assertThat(reader.outOfOrder).isZero();
            for (int p = 0; p < PRODUCERS; p++)
            {
                assertThat(reader.received[p]).isEqualTo(PER_PRODUCER);
            }
            if (reader.received[ADDRESSED_MARK] > 0)
            {
                addressedClients++;
                assertThat(reader.received[ADDRESSED_MARK]).isEqualTo(ADDRESSED);
            }
        }
        assertThat(addressedClients).as("clients that got the addressed messages").isEqualTo(1);
        assertThat(rig.onServer(rig.fanout::dropped)).isZero();
    }

    @Test
    void aPublicationToAClientThatIsGoneOrToNobodyGoesNowhere() throws Exception
    {
        rig = new SlowClientRig(new OutboundConfig().maxMessageLength(SlowClientRig.MESSAGE_LENGTH));
        final Publisher publisher = rig.publisher(8, 1);
        rig.connectFast(1);
        final SequenceReader reader = rig.fast.get(0);
        publisher.claim(Thread::onSpinWait).to(Long.MAX_VALUE).payload().putLong(0);
        publisher.claim(Thread::onSpinWait).payload().putLong(0);
        publisher.claim(Thread::onSpinWait).toAll().payload().putLong(0);
        publisher.publish();
        // The three share a lane, so the broadcast runs last and arrives after anything the others had sent.
        Await.until("the broadcast", () -> reader.received >= 1, Duration.ofSeconds(30));
        assertThat(reader.received).isEqualTo(1);
        assertThat(reader.outOfOrder).isZero();
    }

    @Test
    void aTextPublicationArrivesAsText() throws Exception
    {
        rig = new SlowClientRig(new OutboundConfig().maxMessageLength(SlowClientRig.MESSAGE_LENGTH));
        final Publisher publisher = rig.publisher(8, 1);
        final BlockingQueue<String> texts = new LinkedBlockingQueue<>();
        rig.connect(new WebSocketHandler()
        {
            @Override
            public void text(final WebSocket socket, final Utf8Text message)
            {
                texts.add(message.toString());
            }
        });
        rig.awaitClients(1);
        publisher.claim(Thread::onSpinWait).toAll().text().payload()
            .put("gr\u00fc\u00df dich".getBytes(StandardCharsets.UTF_8));
        publisher.publish();
        assertThat(texts.poll(30, TimeUnit.SECONDS)).isEqualTo("gr\u00fc\u00df dich");
    }
}
