package io.celer.examples.counter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.celer.reactor.CallbackQueue;
import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorConfig;
import io.celer.test.Await;
import io.celer.test.OnReactor;

/**
 * A counter owned by the reactor thread, changed at once by its server and by another thread through each
 * of the three ways of handing work to the reactor; the reactor checks threads, so a change made on the
 * wrong thread would fail loudly.
 */
class CounterClientTest
{
    private static final int SERVER_LINES = 3_000;
    private static final int DRIVER_CHANGES = 3_000;

    private Reactor reactor;
    private ServerSocket listener;

    @BeforeEach
    void start() throws Exception
    {
        reactor = new Reactor(new ReactorConfig().name("counter").daemon(true).checkThreads(true)
            .idleStrategy(new BackoffIdleStrategy(10, 10, 1_000, 100_000)));
        reactor.start();
        listener = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
    }

    @AfterEach
    void stop() throws Exception
    {
        reactor.stop();
        listener.close();
    }

    @Test
    void blockingCallsWithOneReusedCallback() throws Exception
    {
        final CounterClient client = newClient();
        // One instance for every call: call() returns only once the reactor has run it.
        final CounterCallback callback = new CounterCallback(client);
        runWithDriver(client, down -> reactor.call(callback.down(down)));
    }

    @Test
    void asyncCallsWithANewCallbackEachTime() throws Exception
    {
        final CounterClient client = newClient();
        runWithDriver(client, down ->
        {
            // Not waiting means a new instance per call: garbage, the price of plain callAsync.
            final CounterCallback callback = new CounterCallback(client).down(down);
            while (!reactor.callAsync(callback))
            {
                Thread.yield();
            }
        });
    }

    @Test
    void aGarbageFreeCallbackQueue() throws Exception
    {
        final CounterClient client = newClient();
        // Built on the reactor thread, as a running reactor requires; its callbacks are made once, here.
        final CallbackQueue<CounterCallback> queue =
            OnReactor.get(reactor, () -> reactor.callbackQueue(64, () -> new CounterCallback(client)));
        runWithDriver(client, down ->
        {
            queue.next(Thread::yield).down(down);
            queue.flush();
        });
    }

    @Test
    void aDirectCallFromAnotherThreadFailsWhenTheReactorChecksThreads() throws Exception
    {
        final CounterClient client = newClient().open();
        try (Socket server = listener.accept())
        {
            Await.until("connected", client::isOpen);
            assertThatThrownBy(client::increment).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not on reactor thread counter");
            assertThatThrownBy(client::total).isInstanceOf(IllegalStateException.class);
            send(server.getOutputStream(), "+\n");
            Await.until("the server's line", () -> client.linesReceived() == 1);
            assertThat(totalOnReactor(client)).isEqualTo(1);
            assertThat(client.touchedOffReactor()).isZero();
        }
    }

    /**
     * The server sends 2,000 '+' and 1,000 '-' lines (and some it ignores) while another thread makes 2,000
     * additions and 1,000 subtractions: the total ends at 2,000 whatever the interleaving.
     */
    private void runWithDriver(final CounterClient client, final Consumer<Boolean> change) throws Exception
    {
        client.open();
        try (Socket server = listener.accept())
        {
            // Opening resets the counter: changes start once connected.
            Await.until("connected", client::isOpen);
            final CompletableFuture<Void> driver = CompletableFuture.runAsync(() ->
            {
                for (int i = 0; i < DRIVER_CHANGES; i++)
                {
                    change.accept(i % 3 == 0);
                }
            }, io.celer.test.TestThreads.pool());
            final StringBuilder lines = new StringBuilder();
            for (int i = 0; i < SERVER_LINES; i++)
            {
                lines.append(i % 3 == 0 ? "-\n" : "+ more\n");
                if (i % 500 == 0)
                {
                    lines.append("\nnoise\n");
                }
            }
            send(server.getOutputStream(), lines.toString());
            driver.get(60, TimeUnit.SECONDS);
            Await.until(() -> "all changes, at " + client.changes(),
                () -> client.changes() == SERVER_LINES + DRIVER_CHANGES, Await.DEFAULT);
            assertThat(totalOnReactor(client)).isEqualTo(2_000);
            assertThat(client.lastTotal()).isEqualTo(2_000);
            assertThat(client.linesReceived()).isEqualTo(SERVER_LINES + 2 * (SERVER_LINES / 500));
            assertThat(client.touchedOffReactor()).as("changes made off the reactor thread").isZero();
        }
    }

    private CounterClient newClient()
    {
        return new CounterClient(reactor, "127.0.0.1", listener.getLocalPort());
    }

    private long totalOnReactor(final CounterClient client)
    {
        return OnReactor.get(reactor, client::total);
    }

    private static void send(final OutputStream out, final String text) throws Exception
    {
        out.write(text.getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }
}
