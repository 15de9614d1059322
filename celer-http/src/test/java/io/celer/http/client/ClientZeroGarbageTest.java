package io.celer.http.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.http.HttpMethod;
import io.celer.http.server.TestServer;
import io.celer.test.Await;
import io.celer.test.SteadyAllocation;

/**
 * After warm-up, the client allocates nothing on its reactor thread per request: keep-alive GETs one at a time,
 * pipelined GETs, and 1 KiB POSTs echoed back, against the Celer server on another reactor.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class ClientZeroGarbageTest
{
    // As in the server's test: until the JIT has compiled the whole path, interpreted code allocates; the
    // measurement waits for the JIT to go quiet (SteadyAllocation).
    private static final int WARMUP = 150_000;
    private static final int MEASURED = 50_000;
    private static final Duration PHASE = Duration.ofMinutes(2);

    @RegisterExtension
    final ClientRig rig = new ClientRig();
    private TestServer server;
    private HttpClient client;

    /** Keeps a number of requests in flight: each response sends the next; allocates nothing itself. */
    private static final class Driver implements ResponseListener
    {
        private final HttpClient client;
        private final HttpMethod method;
        private final String target;
        private final byte[] body;
        private final int expectedLength;
        final AtomicLong done = new AtomicLong();
        final AtomicLong wrong = new AtomicLong();
        private long toSend;

        Driver(final HttpClient client, final HttpMethod method, final String target, final byte[] body,
            final int expectedLength)
        {
            this.client = client;
            this.method = method;
            this.target = target;
            this.body = body;
            this.expectedLength = expectedLength;
        }

        /** Sends a number of requests, a window of them at a time; returns when they are answered. */
        void run(final long count, final int window)
        {
            final long goal = done.get() + count;
            client.reactor().execute(() ->
            {
                toSend = count;
                for (int i = 0; i < window; i++)
                {
                    sendOne();
                }
            });
            Await.until(() -> "responses: " + done.get() + " of " + goal, () -> done.get() >= goal, PHASE);
        }

        private void sendOne()
        {
            if (toSend > 0)
            {
                toSend--;
                final HttpClientRequest request = client.request(method, target);
                if (body != null)
                {
                    request.body(body);
                }
                request.send(this);
            }
        }

        @Override
        public void response(final HttpClientResponse response)
        {
            if (response.status() != 200 || response.body().remaining() != expectedLength)
            {
                wrong.incrementAndGet();
            }
            done.incrementAndGet();
            sendOne();
        }

        @Override
        public void error(final HttpClientException failure)
        {
            wrong.incrementAndGet();
            done.incrementAndGet();
            sendOne();
        }
    }

    private List<Long> allocated(final HttpMethod method, final String target, final byte[] body, final int expected,
        final int window) throws Exception
    {
        server = rig.add(new TestServer());
        client = rig.client(new HttpClientConfig().connectionsPerHost(1).maxPipelineDepth(16),
            "127.0.0.1:" + server.port());
        final Driver driver = new Driver(client, method, target, body, expected);
        driver.run(WARMUP, window);
        final List<Long> runs =
            SteadyAllocation.perWindow(client.reactor().thread(), () -> driver.run(MEASURED, window));
        assertThat(driver.wrong.get()).as("failed or unexpected responses").isZero();
        return runs;
    }

    @Test
    void keepAliveGetsAllocateNothing() throws Exception
    {
        assertThat(allocated(HttpMethod.GET, "/plaintext", null, TestServer.HELLO.length, 1))
            .as("bytes allocated by the client's reactor in runs of %d keep-alive GETs", MEASURED).contains(0L);
    }

    @Test
    void pipelinedGetsAllocateNothing() throws Exception
    {
        assertThat(allocated(HttpMethod.GET, "/plaintext", null, TestServer.HELLO.length, 16))
            .as("bytes allocated by the client's reactor in runs of %d pipelined GETs", MEASURED).contains(0L);
    }

    @Test
    void postsOfOneKibAllocateNothing() throws Exception
    {
        final byte[] body = TestServer.letters(1024);
        assertThat(allocated(HttpMethod.POST, "/echo", body, body.length, 1))
            .as("bytes allocated by the client's reactor in runs of %d 1 KiB POSTs", MEASURED).contains(0L);
    }
}
