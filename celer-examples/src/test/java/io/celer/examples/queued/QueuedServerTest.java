package io.celer.examples.queued;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.examples.support.PipelinedLineClient;
import io.celer.examples.support.Loopback;
import io.celer.reactor.Reactor;
import io.celer.test.Allocations;
import io.celer.test.Await;

/**
 * The queued server over real sockets: answers, lanes, order per connection and lane, full queues, closed
 * connections, and a reactor that allocates nothing per request.
 */
class QueuedServerTest
{
    @RegisterExtension
    final Loopback loopback = new Loopback();
    private final List<QueuedServer> servers = new ArrayList<>();

    @AfterEach
    void stop()
    {
        servers.forEach(QueuedServer::close);
    }

    private QueuedServer start(final Reactor reactor, final int workers, final int heavyWorkers,
        final long heavyMillis, final int capacity)
    {
        final QueuedServer server =
            new QueuedServer(reactor, 0, Loopback.config(), workers, heavyWorkers, heavyMillis, capacity);
        servers.add(server);
        return server.open();
    }

    private static String answer(final String line)
    {
        return line.length() + ": " + line;
    }

    @Test
    void answersEachLineWithItsLengthOnBothLanes() throws Exception
    {
        final QueuedServer server = start(loopback.reactor("queued"), 2, 1, 1, 64);
        try (PipelinedLineClient client = new PipelinedLineClient(server.localAddress().getPort(), 10))
        {
            client.send("hello\n\nheavy work\r\nheavy\n");
            final List<String> answers = new ArrayList<>();
            for (int i = 0; i < 4; i++)
            {
                answers.add(client.readLine());
            }
            // Lanes keep no order between them: compare as sets, then the light lane's own order.
            assertThat(answers).containsExactlyInAnyOrder("5: hello", "0: ", "10: heavy work", "5: heavy");
            assertThat(answers.stream().filter(a -> !a.contains("heavy work")))
                .containsExactly("5: hello", "0: ", "5: heavy");
        }
        Await.until("answers counted", () -> server.answered() == 4);
        assertThat(server.refused()).isZero();
    }

    @Test
    void aHeavyRequestDoesNotDelayLightOnes() throws Exception
    {
        // The heavy request takes a minute, longer than any wait here: it can only be answered after them all.
        final QueuedServer server = start(loopback.reactor("queued"), 2, 1, 60_000, 64);
        final int port = server.localAddress().getPort();
        try (PipelinedLineClient slow = new PipelinedLineClient(port, 10);
            PipelinedLineClient fast = new PipelinedLineClient(port, 10))
        {
            slow.send("heavy report\nquick one\n");
            assertThat(slow.readLine()).as("a light line after a heavy one on the same connection")
                .isEqualTo("9: quick one");
            final List<String> lines = numbered("fast-", 500);
            assertThat(fast.exchange(lines, null)).as("another connection's light lines")
                .isEqualTo(lines.stream().map(QueuedServerTest::answer).toList());
            assertThat(slow.hasInput()).as("the heavy answer, still being worked on").isFalse();
        }
    }

    @Test
    void keepsEachConnectionsOrderWithinALane() throws Exception
    {
        final QueuedServer server = start(loopback.reactor("queued"), 3, 2, 0, 1024);
        final int port = server.localAddress().getPort();
        final int clients = 6;
        final int each = 3_000;
        final List<CompletableFuture<List<String>>> results = new ArrayList<>();
        final List<List<String>> sent = new ArrayList<>();
        for (int c = 0; c < clients; c++)
        {
            final List<String> lines = new ArrayList<>();
            for (int i = 0; i < each; i++)
            {
                lines.add(i % 5 == 0 ? "heavy c" + c + "-" + i : "c" + c + "-" + i);
            }
            sent.add(lines);
            results.add(PipelinedLineClient.exchangeAsync(port, 200, lines, null));
        }
        for (int c = 0; c < clients; c++)
        {
            final List<String> answers = results.get(c).get(120, TimeUnit.SECONDS);
            final List<String> expected = sent.get(c).stream().map(QueuedServerTest::answer).toList();
            assertThat(answers).hasSize(each);
            assertThat(answers.stream().filter(a -> a.contains("heavy")).toList())
                .isEqualTo(expected.stream().filter(a -> a.contains("heavy")).toList());
            assertThat(answers.stream().filter(a -> !a.contains("heavy")).toList())
                .isEqualTo(expected.stream().filter(a -> !a.contains("heavy")).toList());
        }
        assertThat(server.refused()).isZero();
    }

    @Test
    void aFullQueueAnswersBusyAndNamesTheRefusedLine() throws Exception
    {
        // One heavy worker, two carriers, half a second a request: ten lines in one write cannot all fit.
        final QueuedServer server = start(loopback.reactor("queued"), 1, 1, 500, 2);
        try (PipelinedLineClient client = new PipelinedLineClient(server.localAddress().getPort(), 10))
        {
            final List<String> lines = numbered("heavy ", 10);
            client.send(String.join("\n", lines) + "\n");
            final List<String> answers = new ArrayList<>();
            for (int i = 0; i < lines.size(); i++)
            {
                answers.add(client.readLine());
            }
            final List<String> busy = answers.stream().filter(a -> a.startsWith("busy: ")).toList();
            final List<String> worked = answers.stream().filter(a -> !a.startsWith("busy: ")).toList();
            assertThat(busy).isNotEmpty();
            assertThat(worked).isNotEmpty();
            // Every line answered exactly once, one way or the other; the worked ones in order.
            final List<String> answeredLines = new ArrayList<>();
            busy.forEach(a -> answeredLines.add(a.substring("busy: ".length())));
            worked.forEach(a -> answeredLines.add(a.substring(a.indexOf(": ") + 2)));
            assertThat(answeredLines).containsExactlyInAnyOrderElementsOf(lines);
            assertThat(worked).isSorted();
            assertThat(server.refused()).isEqualTo(busy.size());
        }
    }

    @Test
    void anAnswerForAConnectionThatClosedIsSkipped() throws Exception
    {
        // Three seconds of work leave the reactor ample time to see the close first.
        final QueuedServer server = start(loopback.reactor("queued"), 1, 1, 3_000, 16);
        try (PipelinedLineClient client = new PipelinedLineClient(server.localAddress().getPort(), 10))
        {
            client.send("heavy gone before the answer\n");
            Await.until("the server to see the connection", () -> server.server().connectionCount() == 1);
        }
        Await.until("the server to see the close", () -> server.server().connectionCount() == 0);
        Await.until("the answer to be skipped", () -> server.skipped() == 1);
        assertThat(server.answered()).isZero();
    }

    @Test
    void theReactorAllocatesNothingPerRequestAfterWarmUp() throws Exception
    {
        final Reactor reactor = loopback.reactor("queued");
        final QueuedServer server = start(reactor, 2, 1, 0, 1024);
        final long round = 50_000;
        final long measured = 100_000;
        try (PipelinedLineClient client = new PipelinedLineClient(server.localAddress().getPort(), 100))
        {
            // Warm until three rounds in a row allocate nothing.
            long sent = 0;
            for (int clean = 0, i = 0; clean < 3 && i < 30; i++)
            {
                final long before = Allocations.allocatedBytes(reactor.thread());
                client.exchange(requests(sent, round), null);
                sent += round;
                clean = Allocations.allocatedBytes(reactor.thread()) == before ? clean + 1 : 0;
            }
            final long warmUp = sent;
            // Even then the JIT may, once per class, turn the string literals of a class it is about to compile
            // into objects on the thread that asked for the compile, which may be the reactor. That is a handful
            // of bytes once, not per request: one window of 100,000 requests at 0 bytes shows that nothing is
            // allocated per request, while anything allocated even once per 100,000 requests would show in all.
            final List<Long> windows = new ArrayList<>();
            long workersAllocated = 0;
            while (windows.size() < 5 && (windows.isEmpty() || windows.get(windows.size() - 1) != 0))
            {
                final long reactorBefore = Allocations.allocatedBytes(reactor.thread());
                final long[] workersBefore = workerBytes(server);
                final List<String> answers = client.exchange(requests(sent, measured), null);
                windows.add(Allocations.allocatedBytes(reactor.thread()) - reactorBefore);
                final long[] workersAfter = workerBytes(server);
                workersAllocated = 0;
                for (int i = 0; i < workersAfter.length; i++)
                {
                    workersAllocated += workersAfter[i] - workersBefore[i];
                }
                final List<String> expected =
                    new ArrayList<>(requests(sent, measured).stream().map(QueuedServerTest::answer).toList());
                final List<String> got = new ArrayList<>(answers);
                expected.sort(null);
                got.sort(null);
                assertThat(got).as("every request answered once").isEqualTo(expected);
                sent += measured;
            }
            System.out.printf("queued server, windows of %,d requests after %,d of warm-up: reactor allocated %s " +
                "bytes; workers %,d bytes in the last window%n", measured, warmUp, windows, workersAllocated);
            assertThat(windows.get(windows.size() - 1))
                .as("bytes allocated by the reactor over %d requests, windows %s", measured, windows).isZero();
        }
    }

    private static long[] workerBytes(final QueuedServer server)
    {
        final Thread[] threads = server.workerThreads();
        final long[] bytes = new long[threads.length];
        for (int i = 0; i < threads.length; i++)
        {
            bytes[i] = Allocations.allocatedBytes(threads[i]);
        }
        return bytes;
    }

    /**
     * Numbered lines, every tenth of them for the heavy lane.
     */
    private static List<String> requests(final long from, final long count)
    {
        final List<String> lines = new ArrayList<>((int)count);
        for (long i = from; i < from + count; i++)
        {
            lines.add(i % 10 == 0 ? "heavy " + i : "request " + i);
        }
        return lines;
    }

    private static List<String> numbered(final String prefix, final int count)
    {
        final List<String> lines = new ArrayList<>(count);
        for (int i = 0; i < count; i++)
        {
            lines.add(prefix + i);
        }
        return lines;
    }
}
