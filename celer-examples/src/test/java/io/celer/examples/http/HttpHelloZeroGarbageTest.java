package io.celer.examples.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.celer.examples.Demo;
import io.celer.examples.cli.Running;
import io.celer.examples.support.DemoRuns;
import io.celer.examples.support.Loopback;
import io.celer.test.SteadyAllocation;

/**
 * The {@code http-hello} demo, started as the command line starts it, allocates nothing on its reactor thread
 * per keep-alive request to {@code /plaintext} or {@code /json} once warm. The client is a blocking socket on
 * the test thread, whose allocations do not count.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class HttpHelloZeroGarbageTest
{
    // Until the JIT has compiled the whole path, interpreted code allocates what compiled code keeps in registers.
    private static final int WARMUP = 150_000;
    private static final int MEASURED = 50_000;
    private static final int BATCH = 8;

    @RegisterExtension
    final DemoRuns demos = new DemoRuns(Demo::execute);

    @ParameterizedTest
    @ValueSource(strings = {"/plaintext", "/json"})
    void keepAliveRequestsAllocateNothingOnTheReactor(final String path) throws Exception
    {
        final Running demo = demos.start("http-hello", "--host", Loopback.HOST, "--port", "0");
        final Thread reactor = DemoRuns.reactorThread("http-hello");
        final byte[] body = path.equals("/json") ? HelloRoutes.JSON : HelloRoutes.HELLO;
        final String request = "GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n";
        try (Socket socket = new Socket(Loopback.HOST, demo.port()))
        {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(30_000);
            final Exchange exchange = new Exchange(socket, request, body);
            exchange.run(WARMUP / BATCH);
            assertThat(SteadyAllocation.perWindow(reactor, () -> exchange.run(MEASURED / BATCH)))
                .as("bytes allocated by the demo's reactor per window of %d GET %s", MEASURED, path)
                .endsWith(0L);
        }
        assertThat(demos.stop(demo)).isZero();
    }

    /** Pipelines a batch of identical requests and reads exactly the bytes of their responses. */
    private static final class Exchange
    {
        private final OutputStream out;
        private final InputStream in;
        private final byte[] requests;
        private final byte[] body;
        private final byte[] responses;

        Exchange(final Socket socket, final String request, final byte[] body) throws IOException
        {
            this.out = socket.getOutputStream();
            this.in = socket.getInputStream();
            this.body = body;
            this.requests = request.repeat(BATCH).getBytes(StandardCharsets.US_ASCII);
            // One response tells the length of all: constant, as the Date field's is.
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            final byte[] first = new byte[4096];
            int n = 0;
            while (n < body.length || !Arrays.equals(first, n - body.length, n, body, 0, body.length))
            {
                final int r = in.read(first, n, first.length - n);
                if (r < 0)
                {
                    throw new IOException("closed");
                }
                n += r;
            }
            responses = new byte[n * BATCH];
        }

        void run(final int batches) throws IOException
        {
            for (int b = 0; b < batches; b++)
            {
                out.write(requests);
                int n = 0;
                while (n < responses.length)
                {
                    final int r = in.read(responses, n, responses.length - n);
                    if (r < 0)
                    {
                        throw new IOException("closed after " + n + " bytes");
                    }
                    n += r;
                }
                if (!Arrays.equals(responses, responses.length - body.length, responses.length, body, 0, body.length))
                {
                    throw new IOException("unexpected response: " + new String(responses, StandardCharsets.US_ASCII));
                }
            }
        }
    }
}
