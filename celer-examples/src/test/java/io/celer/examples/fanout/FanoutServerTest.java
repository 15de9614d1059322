package io.celer.examples.fanout;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.examples.support.Loopback;
import io.celer.examples.support.PipelinedLineClient;
import io.celer.reactor.Reactor;
import io.celer.tcp.TcpServer;
import io.celer.test.Allocations;
import io.celer.test.Await;
import io.celer.test.Sockets;

/**
 * The fan-out front server over real sockets: load spread, order per client, failover when a back-end dies,
 * its return, requests that wait for a back-end, the bounds, and no allocation per request.
 */
class FanoutServerTest
{
    @RegisterExtension
    final Loopback loopback = new Loopback();

    private static BackendServer backend(final Reactor reactor, final int port)
    {
        return new BackendServer(reactor, port, Loopback.config()).open();
    }

    /** A back-end that takes requests and never answers, until it is closed. */
    private static TcpServer silent(final Reactor reactor)
    {
        return new TcpServer(reactor, 0, Loopback.config(), new io.celer.tcp.Handler() { }).open();
    }

    private FanoutServer front(final int maxPending, final int maxWaiting, final int... backendPorts)
    {
        return new FanoutServer(loopback.reactor("front"), 0, Loopback.config(), addresses(backendPorts),
            maxPending, maxWaiting, 20).open();
    }

    private static List<InetSocketAddress> addresses(final int... ports)
    {
        final List<InetSocketAddress> addresses = new ArrayList<>();
        for (final int port : ports)
        {
            addresses.add(InetSocketAddress.createUnresolved("127.0.0.1", port));
        }
        return addresses;
    }

    private static void awaitUp(final FanoutServer front)
    {
        Await.until("every back-end connected", () ->
        {
            for (int i = 0; i < front.backends(); i++)
            {
                if (!front.isBackendUp(i))
                {
                    return false;
                }
            }
            return true;
        });
    }

    /**
     * Several clients each pipeline their requests concurrently.
     */
    private static List<List<String>> run(final int port, final int clients, final int each, final String tag,
        final AtomicLong answered) throws Exception
    {
        final List<CompletableFuture<List<String>>> results = new ArrayList<>();
        for (int c = 0; c < clients; c++)
        {
            final List<String> lines = requests(tag + c, each);
            results.add(PipelinedLineClient.exchangeAsync(port, 200, lines, answered));
        }
        final List<List<String>> answers = new ArrayList<>();
        for (final CompletableFuture<List<String>> result : results)
        {
            answers.add(result.get(120, TimeUnit.SECONDS));
        }
        return answers;
    }

    private static List<String> requests(final String client, final int count)
    {
        final List<String> lines = new ArrayList<>(count);
        for (int i = 0; i < count; i++)
        {
            lines.add(client + "-" + i);
        }
        return lines;
    }

    /**
     * Checks every answer is {@code <port>:<request>}, one per request in request order; counts them by port.
     */
    private static void checkAnswers(final List<List<String>> answers, final int each, final String tag,
        final Map<Integer, Integer> byPort)
    {
        for (int c = 0; c < answers.size(); c++)
        {
            final List<String> got = answers.get(c);
            assertThat(got).as("answers of client %d", c).hasSize(each);
            for (int i = 0; i < each; i++)
            {
                final String answer = got.get(i);
                final int colon = answer.indexOf(':');
                assertThat(answer.substring(colon + 1)).as("answer %d of client %d", i, c).isEqualTo(tag + c + "-" + i);
                byPort.merge(Integer.parseInt(answer.substring(0, colon)), 1, Integer::sum);
            }
        }
    }

    @Test
    void spreadsTheLoadAndAnswersEveryRequestOnceInOrderWhenABackendDiesAndComesBack() throws Exception
    {
        final Reactor backendReactor = loopback.reactor("backends");
        final BackendServer[] backends = new BackendServer[3];
        final int[] ports = new int[3];
        for (int i = 0; i < 3; i++)
        {
            backends[i] = backend(backendReactor, 0);
            ports[i] = backends[i].port();
        }
        final FanoutServer front = front(4096, 1024, ports);
        awaitUp(front);
        final int port = front.localAddress().getPort();

        // Four clients, 5,000 requests each; the first back-end is killed once a third are answered.
        final int clients = 4;
        final int each = 5_000;
        final AtomicLong answered = new AtomicLong();
        final CompletableFuture<Void> killer = CompletableFuture.runAsync(() ->
        {
            Await.until("a third answered", () -> answered.get() >= clients * each / 3);
            backends[0].close();
        }, io.celer.test.TestThreads.pool());
        final Map<Integer, Integer> byPort = new HashMap<>();
        checkAnswers(run(port, clients, each, "a", answered), each, "a", byPort);
        killer.get(30, TimeUnit.SECONDS);
        System.out.println("answers by back-end port " + byPort + ", re-sent " + front.resent());
        for (final int backendPort : ports)
        {
            assertThat(byPort.getOrDefault(backendPort, 0)).as("answers from %d", backendPort).isPositive();
        }
        assertThat(front.unavailable()).isZero();

        // The dead back-end comes back on its port: the front reconnects and gives it work again.
        Await.until("the first back-end's server closed", () -> !backends[0].isOpen());
        Await.until("the front to see it gone", () -> !front.isBackendUp(0));
        final long answeredByFirstBefore = front.answeredBy(0);
        backends[0] = backend(backendReactor, ports[0]);
        awaitUp(front);
        final Map<Integer, Integer> afterReturn = new HashMap<>();
        checkAnswers(run(port, 2, 2_000, "b", null), 2_000, "b", afterReturn);
        System.out.println("after the return, answers by back-end port " + afterReturn);
        assertThat(afterReturn.getOrDefault(ports[0], 0)).as("answers from the returned back-end").isPositive();
        assertThat(front.answeredBy(0)).isGreaterThan(answeredByFirstBefore);
    }

    @Test
    void requestsPendingOnABackendThatDiesAreSentToAnother() throws Exception
    {
        final Reactor backendReactor = loopback.reactor("backends");
        final TcpServer silent = silent(backendReactor);
        final BackendServer answering = backend(backendReactor, 0);
        final FanoutServer front = front(64, 64, silent.port(), answering.port());
        awaitUp(front);
        try (PipelinedLineClient client = new PipelinedLineClient(front.localAddress().getPort(), 100))
        {
            final List<String> lines = requests("r", 20);
            client.send(String.join("\n", lines) + "\n");
            // Ties go in turn, so the silent back-end holds some; then the first answers wait behind them.
            Await.until("the answering back-end's share", () -> front.answeredBy(1) > 0);
            assertThat(client.hasInput()).isFalse();
            silent.close();
            final List<String> answers = new ArrayList<>();
            for (int i = 0; i < lines.size(); i++)
            {
                answers.add(client.readLine());
            }
            assertThat(answers).isEqualTo(lines.stream().map(l -> answering.port() + ":" + l).toList());
            // What the silent one held was sent again; every answer came from the other, once.
            assertThat(front.resent()).isBetween(1L, 20L);
            assertThat(front.answeredBy(0)).isZero();
            assertThat(front.answeredBy(1)).isEqualTo(20);
        }
    }

    @Test
    void aClientThatLeavesWithRequestsOutGivesItsSlotsBack() throws Exception
    {
        final Reactor backendReactor = loopback.reactor("backends");
        final TcpServer silent = silent(backendReactor);
        final FanoutServer front = front(4, 16, silent.port());
        awaitUp(front);
        final int frontPort = front.localAddress().getPort();
        try (PipelinedLineClient leaving = new PipelinedLineClient(frontPort, 100))
        {
            leaving.send("l-0\nl-1\nl-2\nl-3\nl-4\n");
            Await.until("every slot taken", () -> front.pauses() == 1);
        }
        // Its requests are still out at the silent back-end, and the front, not reading, has not seen it leave:
        // they wait for a back-end when the silent one dies, go out when one comes, and their answers go nowhere.
        final int silentPort = silent.port();
        silent.close();
        Await.until("the silent back-end gone", () -> !front.isBackendUp(0));
        final BackendServer backend = backend(backendReactor, silentPort);
        awaitUp(front);
        try (PipelinedLineClient next = new PipelinedLineClient(frontPort, 100))
        {
            final List<String> lines = requests("n", 4);
            assertThat(next.exchange(lines, null)).isEqualTo(lines.stream().map(l -> silentPort + ":" + l).toList());
        }
        // The leaving client's five (the fifth read once the reads resumed) and the next one's four.
        Await.until("nine answered", () -> backend.answered() == 9);
    }

    @Test
    void requestsWaitForABackendAndBeyondTheBoundAreAnsweredWithAnError() throws Exception
    {
        final SocketChannel reserved = Sockets.refusingPort(); // refuses until the back-end comes
        final int port = Sockets.portOf(reserved);
        final FanoutServer front = front(64, 4, port);
        final int frontPort = front.localAddress().getPort();
        try (PipelinedLineClient early = new PipelinedLineClient(frontPort, 100);
            PipelinedLineClient late = new PipelinedLineClient(frontPort, 100))
        {
            early.send("w-0\nw-1\nw-2\nw-3\nw-4\nw-5\n");
            Await.until("two beyond the bound", () -> front.unavailable() == 2);
            // A client with nothing before it hears at once; the early one's errors keep their place.
            late.send("too late\n");
            assertThat(late.readLine()).isEqualTo("error: no back-end available");
            assertThat(early.hasInput()).isFalse();

            reserved.close();
            final BackendServer backend = backend(loopback.reactor("backend"), port);
            final List<String> answers = new ArrayList<>();
            for (int i = 0; i < 6; i++)
            {
                answers.add(early.readLine());
            }
            assertThat(answers).containsExactly(port + ":w-0", port + ":w-1", port + ":w-2", port + ":w-3",
                "error: no back-end available", "error: no back-end available");
            assertThat(backend.answered()).isEqualTo(4);
        }
    }

    @Test
    void requestsBeyondTheSlotsWaitWithReadsPausedAndAreAnsweredInTheirPlace() throws Exception
    {
        final SocketChannel reserved = Sockets.refusingPort(); // refuses until the back-end comes
        final int port = Sockets.portOf(reserved);
        final FanoutServer front = front(3, 64, port);
        try (PipelinedLineClient client = new PipelinedLineClient(front.localAddress().getPort(), 100);
            PipelinedLineClient other = new PipelinedLineClient(front.localAddress().getPort(), 100))
        {
            client.send("o-0\no-1\no-2\no-3\no-4\n");
            Await.until("every slot taken and reads paused", () -> front.pauses() == 1);
            // A client that had sent nothing is held back too: it would bring a request with no slot.
            other.send("x-0\n");
            reserved.close();
            backend(loopback.reactor("backend"), port);
            final List<String> answers = new ArrayList<>();
            for (int i = 0; i < 5; i++)
            {
                answers.add(client.readLine());
            }
            assertThat(answers).containsExactly(port + ":o-0", port + ":o-1", port + ":o-2", port + ":o-3",
                port + ":o-4");
            assertThat(other.readLine()).isEqualTo(port + ":x-0");
            assertThat(front.unavailable()).isZero();
        }
    }

    @Test
    void tenThousandRequestsInFlightFromManyClientsAreAllAnsweredInOrderWithNoneRefused() throws Exception
    {
        final Reactor backendReactor = loopback.reactor("backends");
        final int[] ports = new int[2];
        for (int i = 0; i < ports.length; i++)
        {
            ports[i] = backend(backendReactor, 0).port();
        }
        // 512 slots for 10,000 requests in flight: the front must pause its clients some twenty times over.
        final FanoutServer front = front(512, 64, ports);
        awaitUp(front);
        final int clients = 50;
        final int each = 1_000;
        final List<CompletableFuture<List<String>>> results = new ArrayList<>();
        for (int c = 0; c < clients; c++)
        {
            results.add(PipelinedLineClient.exchangeAsync(front.localAddress().getPort(), 200, requests("p" + c, each),
                null));
        }
        final List<List<String>> answers = new ArrayList<>();
        for (final CompletableFuture<List<String>> result : results)
        {
            answers.add(result.get(120, TimeUnit.SECONDS));
        }
        final Map<Integer, Integer> byPort = new HashMap<>();
        checkAnswers(answers, each, "p", byPort);
        System.out.println("50 clients, 200 requests in flight each over 512 slots: reads paused " + front.pauses() +
            " times, answers by back-end port " + byPort);
        assertThat(front.pauses()).isPositive();
        assertThat(front.unavailable()).isZero();
    }

    @Test
    void backendsJoinAndLeaveUnderLoadAndEveryRequestIsAnsweredOnce() throws Exception
    {
        final Reactor backendReactor = loopback.reactor("backends");
        final BackendServer[] backends = new BackendServer[3];
        for (int i = 0; i < backends.length; i++)
        {
            backends[i] = backend(backendReactor, 0);
        }
        final FanoutServer front = front(1024, 64, backends[0].port());
        awaitUp(front);
        final int clients = 6;
        final int each = 20_000;
        final AtomicLong answered = new AtomicLong();
        // From a thread of the test's, as an operator's tool would: grow to three, then shrink to the last one.
        final CompletableFuture<Void> operator = CompletableFuture.runAsync(() ->
        {
            Await.until("a sixth answered", () -> answered.get() >= clients * each / 6);
            front.addBackend(InetSocketAddress.createUnresolved("127.0.0.1", backends[1].port()));
            front.addBackend(InetSocketAddress.createUnresolved("127.0.0.1", backends[2].port()));
            Await.until("three back-ends connected", () -> front.backends() == 3 && front.isBackendUp(2));
            final long grown = answered.get();
            Await.until("the new back-ends take load", () -> answered.get() >= grown + clients * each / 6);
            front.removeBackend(InetSocketAddress.createUnresolved("127.0.0.1", backends[0].port()));
            front.removeBackend(InetSocketAddress.createUnresolved("127.0.0.1", backends[1].port()));
            Await.until("one back-end left", () -> front.backends() == 1);
        }, io.celer.test.TestThreads.pool());
        final Map<Integer, Integer> byPort = new HashMap<>();
        checkAnswers(run(front.localAddress().getPort(), clients, each, "g", answered), each, "g", byPort);
        operator.get(60, TimeUnit.SECONDS);
        System.out.println("grown to 3 and shrunk to 1: answers by back-end port " + byPort + ", re-sent " +
            front.resent());
        assertThat(front.backendAddresses()).containsExactly("127.0.0.1:" + backends[2].port());
        for (final BackendServer backend : backends)
        {
            assertThat(byPort.getOrDefault(backend.port(), 0)).as("answers from %d", backend.port()).isPositive();
        }
        // Answered exactly once: every request's answer came once (checked above), and the back-ends answered no more.
        long total = 0;
        for (final BackendServer backend : backends)
        {
            total += backend.answered();
        }
        assertThat(total).isEqualTo((long)clients * each);
        assertThat(front.resent()).isZero();
        Await.until("the removed back-ends' connections closed",
            () -> backends[0].connections() == 0 && backends[1].connections() == 0);

        // Requests after the shrink all go to the one left.
        final Map<Integer, Integer> after = new HashMap<>();
        checkAnswers(run(front.localAddress().getPort(), 2, 1_000, "h", null), 1_000, "h", after);
        assertThat(after).containsOnlyKeys(backends[2].port());
    }

    @Test
    void theFrontReactorAllocatesNothingPerRequestAfterWarmUp() throws Exception
    {
        final Reactor backendReactor = loopback.reactor("backends");
        final int[] ports = new int[3];
        for (int i = 0; i < 3; i++)
        {
            ports[i] = backend(backendReactor, 0).port();
        }
        final Reactor frontReactor = loopback.reactor("front");
        final FanoutServer front = new FanoutServer(frontReactor, 0, Loopback.config(), addresses(ports)).open();
        awaitUp(front);
        try (PipelinedLineClient client = new PipelinedLineClient(front.localAddress().getPort(), 100))
        {
            int round = 0;
            for (int clean = 0; clean < 3 && round < 30; round++)
            {
                final long before = Allocations.allocatedBytes(frontReactor.thread());
                assertThat(client.exchange(requests("warm" + round, 20_000), null)).hasSize(20_000);
                clean = Allocations.allocatedBytes(frontReactor.thread()) == before ? clean + 1 : 0;
            }
            // As in the queued server's test: a one-off of the JIT can land in a window, so up to five windows.
            final List<Long> windows = new ArrayList<>();
            while (windows.size() < 5 && (windows.isEmpty() || windows.get(windows.size() - 1) != 0))
            {
                final long before = Allocations.allocatedBytes(frontReactor.thread());
                final List<String> answers = client.exchange(requests("m" + windows.size(), 50_000), null);
                windows.add(Allocations.allocatedBytes(frontReactor.thread()) - before);
                assertThat(answers).hasSize(50_000);
                assertThat(answers.get(49_999)).endsWith(":m" + (windows.size() - 1) + "-49999");
            }
            System.out.printf("fan-out front, windows of 50,000 requests after %,d of warm-up: reactor allocated " +
                "%s bytes%n", round * 20_000, windows);
            assertThat(windows.get(windows.size() - 1)).as("bytes allocated by the front reactor, windows %s", windows)
                .isZero();
        }
    }
}
