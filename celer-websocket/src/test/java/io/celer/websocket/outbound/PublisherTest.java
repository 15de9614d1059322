package io.celer.websocket.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import io.celer.test.Await;
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

    /** Closed after each test by JUnit, stopping its reactors. */
    @AutoClose
    private SlowClientRig rig;

    @Test
    void producersReachEveryClientInTheirOwnOrderAndAddressedMessagesOnlyTheirClient() throws Exception
    {
        // Bounds above all that is sent: whatever the scheduling, nothing may be dropped here.
        rig = new SlowClientRig(new OutboundConfig().maxQueuedMessages(20_000).maxQueuedBytes(4 << 20)
            .maxMessageLength(SlowClientRig.MESSAGE_LENGTH));
        final Publisher publisher = rig.publisher(64, PRODUCERS);
        final List<ProducerWorkload.PerProducerReader> readers = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++)
        {
            final ProducerWorkload.PerProducerReader reader = new ProducerWorkload.PerProducerReader();
            readers.add(reader);
            rig.connect(reader);
        }
        rig.awaitClients(CLIENTS);
        final ProducerWorkload workload =
            new ProducerWorkload(PRODUCERS, PER_PRODUCER, ADDRESSED, SlowClientRig.MESSAGE_LENGTH);
        workload.produce(publisher, rig.openedIds.peek());
        workload.assertDelivered(readers);
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
