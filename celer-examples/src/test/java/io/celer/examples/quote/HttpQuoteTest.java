package io.celer.examples.quote;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.examples.Demo;
import io.celer.examples.cli.Running;
import io.celer.examples.support.DemoRuns;
import io.celer.examples.support.Loopback;
import io.celer.test.Await;

/**
 * {@code ./celer demo http-quote} before {@code http-quote-backend}s, all started as the command line starts
 * them and spoken to over loopback sockets: pipelined clients answered in order, a slow back-end avoided, a
 * killed back-end's requests answered by the others, back-ends listed in a watched file joining and leaving under
 * load, and 502, 503 and 504 when no back-end can answer.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class HttpQuoteTest
{
    @RegisterExtension
    final DemoRuns demos = new DemoRuns(Demo::execute);

    private final ExecutorService clients = Executors.newCachedThreadPool();

    @AfterEach
    void stopClients()
    {
        clients.shutdownNow();
    }

    private Running backend(final int delayMillis) throws Exception
    {
        return demos.start("http-quote-backend", "--host", Loopback.HOST, "--port", "0", "--delay-ms",
            String.valueOf(delayMillis));
    }

    private Running front(final List<Running> backends, final String... options) throws Exception
    {
        final StringBuilder list = new StringBuilder();
        for (final Running backend : backends)
        {
            list.append(list.length() == 0 ? "" : ",").append(Loopback.HOST).append(':').append(backend.port());
        }
        return front(list.toString(), options);
    }

    private Running front(final String backends, final String... options) throws Exception
    {
        final List<String> args = new ArrayList<>(List.of("http-quote", "--host", Loopback.HOST, "--port", "0",
            "--backends", backends));
        args.addAll(List.of(options));
        return demos.start(args.toArray(String[]::new));
    }

    /** Pipelines a client's requests in batches and checks each answer is its request's, in order. */
    private static int pipelined(
        final int port, final int client, final int requests, final int batch, final AtomicInteger progress)
        throws Exception
    {
        int answered = 0;
        try (QuoteWire wire = new QuoteWire(port))
        {
            for (int first = 0; first < requests; first += batch)
            {
                final int end = Math.min(requests, first + batch);
                final String[] symbols = new String[end - first];
                for (int i = first; i < end; i++)
                {
                    symbols[i - first] = "C" + client + "-" + i;
                }
                wire.send(symbols);
                for (final String symbol : symbols)
                {
                    final QuoteWire.Answer answer = wire.read();
                    assertThat(answer.status()).as("status of %s: %s", symbol, answer.body()).isEqualTo(200);
                    assertThat(answer.symbol()).isEqualTo(symbol);
                    assertThat(answer.body()).matches(symbol + " \\d+\\.\\d\\d port \\d+\n");
                    answered++;
                    progress.incrementAndGet();
                }
            }
            assertThat(wire.isQuiet()).as("no answer beyond the requests").isTrue();
        }
        return answered;
    }

    private int runClients(
        final int port, final int count, final int requests, final int batch, final AtomicInteger progress)
        throws Exception
    {
        final List<Future<Integer>> runs = new ArrayList<>();
        for (int c = 0; c < count; c++)
        {
            final int client = c;
            runs.add(clients.submit(() -> pipelined(port, client, requests, batch, progress)));
        }
        int answered = 0;
        for (final Future<Integer> run : runs)
        {
            answered += run.get(2, TimeUnit.MINUTES);
        }
        return answered;
    }

    @Test
    void manyPipelinedClientsAreAnsweredInOrder() throws Exception
    {
        final List<Running> backends = List.of(backend(0), backend(5));
        final Running front = front(backends);
        assertThat(demos.out()).contains("http-quote: listening on 127.0.0.1:" + front.port());
        assertThat(runClients(front.port(), 20, 50, 50, new AtomicInteger())).isEqualTo(20 * 50);
    }

    @Test
    void aFrontOnTwoReactorsAnswersEveryClientThroughItsOwnLinks() throws Exception
    {
        final List<Running> backends = List.of(backend(0));
        final Running front = front(backends, "--reactors", "2");
        assertThat(demos.out()).contains("http-quote: listening on 127.0.0.1:" + front.port() + " on 2 reactors");
        assertThat(runClients(front.port(), 12, 20, 10, new AtomicInteger())).isEqualTo(12 * 20);
    }

    @Test
    void aSlowBackendDoesNotHoldRequestsAFastOneCanTake() throws Exception
    {
        final Running slow = backend(200);
        final Running fast = backend(0);
        final Running front = front(List.of(slow, fast), "--connections", "1");
        final AtomicInteger bySlow = new AtomicInteger();
        final List<Long> fastMillis = java.util.Collections.synchronizedList(new ArrayList<>());
        final List<Future<?>> runs = new ArrayList<>();
        for (int c = 0; c < 4; c++)
        {
            final int client = c;
            runs.add(clients.submit(() ->
            {
                try (QuoteWire wire = new QuoteWire(front.port()))
                {
                    for (int i = 0; i < 25; i++)
                    {
                        final long start = System.nanoTime();
                        wire.send("S" + client);
                        final QuoteWire.Answer answer = wire.read();
                        assertThat(answer.status()).isEqualTo(200);
                        if (answer.body().endsWith("port " + slow.port() + "\n"))
                        {
                            bySlow.incrementAndGet();
                        }
                        else
                        {
                            fastMillis.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
                        }
                    }
                }
                return null;
            }));
        }
        for (final Future<?> run : runs)
        {
            run.get(2, TimeUnit.MINUTES);
        }
        // Least pending: the slow back-end gets a request only while the fast one has as many in flight.
        assertThat(bySlow.get()).as("requests the slow back-end answered, of 100").isLessThan(25);
        final List<Long> sorted = new ArrayList<>(fastMillis);
        sorted.sort(null);
        assertThat(sorted.get(sorted.size() / 2)).as("median ms of requests the fast back-end answered")
            .isLessThan(200L);
    }

    /** Replaces the file whole, as an editor saving it would, so that the watcher never reads half of it. */
    private static void list(final Path file, final Running... backends) throws Exception
    {
        final StringBuilder lines = new StringBuilder("# http-quote's back-ends\n");
        for (final Running backend : backends)
        {
            lines.append(Loopback.HOST).append(':').append(backend.port()).append('\n');
        }
        final Path written = file.resolveSibling(file.getFileName() + ".new");
        Files.writeString(written, lines);
        Files.move(written, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    @Test
    void backendsListedInAWatchedFileJoinAndLeaveUnderLoadAndEveryQuoteIsAnsweredOnce(@TempDir final Path dir)
        throws Exception
    {
        final Running[] backends = {backend(20), backend(20), backend(20)};
        final Path file = dir.resolve("backends.txt");
        list(file, backends[0]);
        final Running front = demos.start("http-quote", "--host", Loopback.HOST, "--port", "0",
            "--backends-file", file.toString());
        final AtomicInteger progress = new AtomicInteger();
        // Batches of 10 answered after 20 ms each: some 4 s of load, through both changes.
        final int total = 10 * 2_000;
        final Future<Integer> load = clients.submit(() -> runClients(front.port(), 10, 2_000, 10, progress));
        Await.until(() -> "answers so far " + progress.get(), () -> progress.get() >= total / 10, Await.DEFAULT);
        list(file, backends);
        Await.until("the file's new back-ends added", () -> demos.err().contains("127.0.0.1:" + backends[2].port() +
            " added"));
        final int grown = progress.get();
        Await.until(() -> "answers so far " + progress.get(), () -> progress.get() >= grown + total / 10,
            Await.DEFAULT);
        list(file, backends[2]);
        Await.until("the first two removed", () -> demos.err().contains("127.0.0.1:" + backends[1].port() +
            " removed"));
        assertThat(progress.get()).as("answered when both changes were made").isLessThan(total);
        // Every quote answered 200, its own, in order, once (pipelined() checks each and that nothing follows).
        assertThat(load.get(2, TimeUnit.MINUTES)).isEqualTo(total);
        try (QuoteWire wire = new QuoteWire(front.port()))
        {
            for (int i = 0; i < 20; i++)
            {
                wire.send("AFTER" + i);
                assertThat(wire.read().body()).endsWith("port " + backends[2].port() + "\n");
            }
        }
    }

    @Test
    void aKilledBackendsRequestsAreAnsweredOnceByTheOthers() throws Exception
    {
        final List<Running> backends = List.of(backend(50), backend(50), backend(50));
        final Running front = front(backends);
        final AtomicInteger progress = new AtomicInteger();
        final int total = 10 * 60;
        final Future<Integer> load = clients.submit(() -> runClients(front.port(), 10, 60, 10, progress));
        // Kill one back-end mid-run, while every connection holds requests in flight.
        Await.until(() -> "answers so far " + progress.get(), () -> progress.get() >= total / 10 || load.isDone(),
            Await.DEFAULT);
        assertThat(demos.stop(backends.get(0))).isZero();
        assertThat(progress.get()).as("answered before the kill").isLessThan(total);
        assertThat(load.get(2, TimeUnit.MINUTES)).isEqualTo(total);
        try (QuoteWire wire = new QuoteWire(front.port()))
        {
            wire.send("AFTER");
            assertThat(wire.read().body()).doesNotEndWith("port " + backends.get(0).port() + "\n")
                .startsWith("AFTER ");
        }
    }

    @Test
    void noBackendAnswers502AndABusyFront503() throws Exception
    {
        final int closed;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            closed = socket.getLocalPort();
        }
        final Running front = front(Loopback.HOST + ":" + closed);
        try (QuoteWire wire = new QuoteWire(front.port()))
        {
            wire.send("IBM");
            final QuoteWire.Answer answer = wire.read();
            assertThat(answer.status()).isEqualTo(502);
            assertThat(answer.body()).startsWith("no quote: ").contains("cannot connect");
        }
        final Running slow = backend(500);
        final Running busy = front(List.of(slow), "--max-pending", "1");
        try (QuoteWire wire = new QuoteWire(busy.port()))
        {
            wire.send("FIRST", "SECOND", "NOT-A-PATH!");
            assertThat(wire.read().symbol()).isEqualTo("FIRST");
            final QuoteWire.Answer second = wire.read();
            assertThat(second.status()).isEqualTo(503);
            assertThat(second.body()).contains("too many quotes pending");
            assertThat(wire.read().status()).isEqualTo(404);
        }
    }

    @Test
    void allBackendsKilledAnswers502NotAHang() throws Exception
    {
        final List<Running> backends = List.of(backend(0), backend(0));
        final Running front = front(backends);
        assertThat(pipelined(front.port(), 0, 10, 10, new AtomicInteger())).isEqualTo(10);
        for (final Running backend : backends)
        {
            assertThat(demos.stop(backend)).isZero();
        }
        try (QuoteWire wire = new QuoteWire(front.port()))
        {
            wire.send("IBM");
            final QuoteWire.Answer answer = wire.read();
            assertThat(answer.status()).isEqualTo(502);
            assertThat(answer.body()).startsWith("no quote: ");
        }
    }

    @Test
    void aBackendTooSlowForTheTimeoutAnswers504() throws Exception
    {
        final Running front = front(List.of(backend(5_000)), "--timeout-ms", "300");
        try (QuoteWire wire = new QuoteWire(front.port()))
        {
            wire.send("IBM");
            final QuoteWire.Answer answer = wire.read();
            assertThat(answer.status()).isEqualTo(504);
            assertThat(answer.body()).startsWith("no quote: ").contains("in time");
        }
    }
}
