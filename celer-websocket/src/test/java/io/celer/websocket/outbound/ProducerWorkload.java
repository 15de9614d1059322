package io.celer.websocket.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.celer.test.Await;
import io.celer.test.TestThreads;
import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketHandler;

/**
 * Producer threads publishing numbered broadcasts, the first of them also a run addressed to one client, and the
 * clients' check: each got every producer's broadcasts once and in that producer's order, and exactly one got the
 * addressed run.
 *
 * @param producers   producer threads.
 * @param perProducer broadcasts each sends.
 * @param addressed   messages the first producer also sends to one client.
 * @param length      each broadcast's length, at least 9 bytes.
 */
record ProducerWorkload(int producers, int perProducer, int addressed, int length)
{
    /** The first byte of an addressed message, where a broadcast has its producer's index. */
    private static final byte ADDRESSED_MARK = 9;

    /**
     * Counts messages per producer (the first byte), checking each producer's numbering (the long after it).
     */
    static final class PerProducerReader implements WebSocketHandler
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

    /**
     * Runs the producers to their end, each on a thread of its own, publishing every sixteen messages.
     *
     * @param publisher  where they publish.
     * @param addressedId the client the addressed run goes to.
     * @throws Exception if a producer failed.
     */
    void produce(final Publisher publisher, final long addressedId) throws Exception
    {
        final List<CompletableFuture<Void>> running = new ArrayList<>();
        for (int p = 0; p < producers; p++)
        {
            final byte producer = (byte)p;
            running.add(CompletableFuture.runAsync(() ->
            {
                for (int i = 0; i < perProducer; i++)
                {
                    final Publication all = publisher.claim(Thread::onSpinWait).toAll();
                    all.payload().put(producer).putLong(i).put(new byte[length - 9]);
                    if (producer == 0 && i < addressed)
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
        CompletableFuture.allOf(running.toArray(new CompletableFuture<?>[0])).get();
    }

    /**
     * Waits for every client to have it all, then checks what each got.
     *
     * @param readers the clients.
     */
    void assertDelivered(final List<PerProducerReader> readers)
    {
        final long broadcast = (long)producers * perProducer;
        for (final PerProducerReader reader : readers)
        {
            Await.until(() -> "messages at a client: " + reader.total,
                () -> reader.total == broadcast || reader.total == broadcast + addressed, Duration.ofSeconds(60));
        }
        int addressedClients = 0;
        for (final PerProducerReader reader : readers)
        {
            assertThat(reader.outOfOrder).isZero();
            for (int p = 0; p < producers; p++)
            {
                assertThat(reader.received[p]).isEqualTo(perProducer);
            }
            if (reader.received[ADDRESSED_MARK] > 0)
            {
                addressedClients++;
                assertThat(reader.received[ADDRESSED_MARK]).isEqualTo(addressed);
            }
        }
        assertThat(addressedClients).as("clients that got the addressed messages").isEqualTo(1);
    }
}
