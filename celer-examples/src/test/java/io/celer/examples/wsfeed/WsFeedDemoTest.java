package io.celer.examples.wsfeed;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket.Listener;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.celer.examples.Demo;
import io.celer.examples.cli.Running;
import io.celer.counters.Counters;
import io.celer.counters.CountersReader;
import io.celer.examples.support.DemoRuns;
import io.celer.test.Await;
import io.celer.reactor.Reactor;
import io.celer.test.Reactors;
import io.celer.test.TestCertificates;
import io.celer.tls.TlsConfig;
import io.celer.websocket.CloseCode;
import io.celer.websocket.Utf8Text;
import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketConfig;
import io.celer.websocket.WebSocketHandler;
import io.celer.websocket.client.WebSocketClient;

/**
 * {@code ./celer demo ws-feed} over real sockets: clients that keep up (Celer's and the JDK's) get every sequence
 * number in order, while a client that stops reading loses messages by the policy (a gap in its numbers when it
 * reads again) or is closed with 1008, and the fast ones go on unaffected; the same feed over TLS.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class WsFeedDemoTest
{
    private static final int RATE = 2000;
    private static final int SIZE = 200;
    /**
     * Messages an outbox holds: a second of the feed, so that a client that keeps up but is left without a CPU for a
     * moment on a loaded machine loses none.
     */
    private static final int QUEUE = RATE;
    /**
     * Messages the fast clients receive while the slow one does not read: three times what its outbox and the
     * buffers behind it hold (the server's 16 KiB and its own 4 KiB, about a hundred messages), so that it has
     * lost messages by then, however slowly the machine runs the feed.
     */
    private static final long PAUSE_MESSAGES = 3L * QUEUE;

    @RegisterExtension
    final DemoRuns demos = new DemoRuns(Demo::execute);
    /** Stops the clients' reactors after each test. */
    @RegisterExtension
    final Reactors reactors = new Reactors();

    /** Checks a fast client's numbers: consecutive from 0. Written on one thread, read by the test. */
    private static final class Sequence
    {
        volatile long received;
        volatile long outOfOrder;
        volatile long sentBeforeDue;
        volatile long lastDueNanos;

        void accept(final CharSequence text)
        {
            if (FeedText.sequence(text) != received)
            {
                outOfOrder++;
            }
            final long dueNanos = FeedText.dueNanos(text);
            if (FeedText.sendNanos(text) < dueNanos || dueNanos < lastDueNanos)
            {
                sentBeforeDue++;
            }
            lastDueNanos = dueNanos;
            received++;
        }
    }

    /** A Celer client that counts what it hears. */
    private static final class CelerReader implements WebSocketHandler
    {
        final Sequence sequence = new Sequence();

        @Override
        public void text(final WebSocket socket, final Utf8Text message)
        {
            sequence.accept(message);
        }
    }

    /** A JDK client that counts what it hears, joining partial messages. */
    private static final class JdkReader implements Listener
    {
        final Sequence sequence = new Sequence();
        private final StringBuilder text = new StringBuilder();

        @Override
        public CompletionStage<?> onText(final java.net.http.WebSocket socket, final CharSequence data,
            final boolean last)
        {
            text.append(data);
            if (last)
            {
                sequence.accept(text);
                text.setLength(0);
            }
            socket.request(1);
            return null;
        }
    }

    private Running start(final String policy) throws Exception
    {
        return demos.start("ws-feed", "--host", "127.0.0.1", "--port", "0", "--rate", "" + RATE, "--size", "" + SIZE,
            "--queue", "" + QUEUE, "--queue-bytes", "" + QUEUE * SIZE, "--send-buffer", "16384", "--policy", policy);
    }

    /** Two Celer clients and a JDK client, connected. */
    private List<Sequence> fastClients(final int port) throws Exception
    {
        final Reactor reactor = reactors.start("ws-feed-clients");
        final List<Sequence> fast = new ArrayList<>();
        for (int i = 0; i < 2; i++)
        {
            final CelerReader reader = new CelerReader();
            new WebSocketClient(reactor, "ws://127.0.0.1:" + port + "/feed", new WebSocketConfig(), reader).open();
            fast.add(reader.sequence);
        }
        final JdkReader jdk = new JdkReader();
        HttpClient.newHttpClient().newWebSocketBuilder()
            .buildAsync(URI.create("ws://127.0.0.1:" + port + "/feed"), jdk).get(30, TimeUnit.SECONDS);
        fast.add(jdk.sequence);
        return fast;
    }

    private static void awaitAtLeast(final List<Sequence> fast, final long messages) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        for (final Sequence sequence : fast)
        {
            while (sequence.received < messages)
            {
                assertThat(System.nanoTime()).as("a fast client at " + sequence.received + " of " + messages)
                    .isLessThan(deadline);
                Thread.sleep(10);
            }
        }
    }

    private static void assertInOrder(final List<Sequence> fast)
    {
        for (final Sequence sequence : fast)
        {
            assertThat(sequence.outOfOrder).as("numbers out of order or missing").isZero();
            assertThat(sequence.sentBeforeDue).as("messages sent before they fell due, or due times going back")
                .isZero();
            assertThat(sequence.received).isPositive();
        }
    }

    @Test
    void onTwoReactorsEveryClientGetsItsFeedInOrder() throws Exception
    {
        final Running feed = demos.start("ws-feed", "--host", "127.0.0.1", "--port", "0", "--rate", "" + RATE,
            "--size", "" + SIZE, "--reactors", "2");
        assertThat(demos.out()).contains("ws-feed: listening on 127.0.0.1:" + feed.port() + " on 2 reactors");
        final List<Sequence> fast = new ArrayList<>(fastClients(feed.port()));
        fast.addAll(fastClients(feed.port()));
        awaitAtLeast(fast, 100);
        assertInOrder(fast);
    }

    @ParameterizedTest
    @ValueSource(strings = {"drop-oldest", "drop-newest"})
    void aClientThatDoesNotReadLosesMessagesAndTheOthersDoNot(final String policy) throws Exception
    {
        final Running feed = start(policy);
        final List<Sequence> fast = fastClients(feed.port());
        awaitAtLeast(fast, 100);
        final PausedReader slow = PausedReader.connect(reactors.start("ws-feed-slow"), feed.port());
        // The fast clients go on while it does not read, counted in messages rather than in time.
        awaitAtLeast(fast, fast.get(0).received + PAUSE_MESSAGES);
        // ./celer stat's reader sees the outbox drop for this policy and the count rise while the client lags.
        final String dropped = "policy=" + policy.replace('-', '_');
        final CountersReader counters = Counters.process().reader();
        final long droppedBefore = counters.sum("", "ws.outbox.dropped", dropped);
        assertThat(droppedBefore).as("dropped while the client did not read").isPositive();
        assertThat(counters.sum("", "ws.outbox.lagging", "")).isPositive();
        awaitAtLeast(fast, fast.get(0).received + QUEUE);
        assertThat(counters.sum("", "ws.outbox.dropped", dropped)).as("still dropping").isGreaterThan(droppedBefore);
        slow.resume();
        awaitGap(slow);
        assertThat(slow.backwards).as("numbers only skip forward").isZero();
        assertThat(slow.closeCode).as("still open").isEqualTo(-1);
        final long after = fast.get(0).received;
        awaitAtLeast(fast, after + 100);
        assertInOrder(fast);
        assertThat(demos.out()).contains("ws-feed: listening on 127.0.0.1:").contains("ws-feed: lag: ");
    }

    private static void awaitGap(final PausedReader slow) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (slow.gaps == 0)
        {
            assertThat(System.nanoTime()).as("a gap in the slow client's numbers, after " + slow.received)
                .isLessThan(deadline);
            Thread.sleep(10);
        }
    }

    @Test
    void aClientThatDoesNotReadIsClosedWith1008UnderTheClosePolicy() throws Exception
    {
        final Running feed = start("close");
        final List<Sequence> fast = fastClients(feed.port());
        awaitAtLeast(fast, 100);
        final PausedReader slow = PausedReader.connect(reactors.start("ws-feed-slow"), feed.port());
        awaitAtLeast(fast, fast.get(0).received + PAUSE_MESSAGES);
        slow.resume();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (slow.closeCode < 0)
        {
            assertThat(System.nanoTime()).as("a close frame, after " + slow.received).isLessThan(deadline);
            Thread.sleep(10);
        }
        assertThat(slow.closeCode).isEqualTo(CloseCode.POLICY_VIOLATION);
        final CountersReader counters = Counters.process().reader();
        assertThat(counters.sum("", "ws.outbox.dropped", "policy=close")).isPositive();
        // The slow client's own session counts the 1008 it heard (the feed's session counts its close too).
        Await.until("the close counted", () -> counters.sum("ws-feed-slow", "ws.closes", "code=1008") == 1);
        assertThat(slow.gaps).as("in order until closed").isZero();
        assertThat(slow.backwards).isZero();
        final long after = fast.get(0).received;
        awaitAtLeast(fast, after + 100);
        assertInOrder(fast);
    }

    @Test
    void feedsOverTls() throws Exception
    {
        final TestCertificates certificates = TestCertificates.get();
        final Running feed = demos.start("ws-feed", "--host", "127.0.0.1", "--port", "0", "--rate", "500", "--tls",
            "--keystore", certificates.server().toString(), "--storepass", TestCertificates.PASSWORD);
        final CelerReader reader = new CelerReader();
        new WebSocketClient(reactors.start("ws-feed-tls"), "wss://localhost:" + feed.port() + "/feed",
            new WebSocketConfig(), reader)
            .tls(new TlsConfig().trustStore(certificates.trustStore(), TestCertificates.PASSWORD)).open();
        awaitAtLeast(List.of(reader.sequence), 200);
        assertInOrder(List.of(reader.sequence));
        assertThat(demos.out()).contains("over TLS");
    }

    @Test
    void rejectsAnUnknownPolicy()
    {
        assertThat(demos.runWithoutStarting("ws-feed", "--port", "0", "--policy", "spill")).isEqualTo(2);
        assertThat(demos.err()).contains("--policy is drop-oldest, drop-newest or close");
    }
}
