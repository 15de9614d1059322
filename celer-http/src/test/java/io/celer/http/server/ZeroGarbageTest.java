package io.celer.http.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.celer.test.SteadyAllocation;

/**
 * After warm-up, serving requests allocates nothing on the server's reactor thread: keep-alive GETs, pipelined
 * GETs and 1 KiB POSTs echoed back. The client is a blocking socket on the test thread, whose allocations do not
 * count.
 */
@Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES)
class ZeroGarbageTest
{
    // As in the core's test: until the JIT has compiled the whole path, interpreted code allocates what compiled
    // code keeps in registers.
    private static final int WARMUP = 150_000;
    private static final int MEASURED = 50_000;

    @AutoClose
    private TestServer server;

    /** Sends a fixed batch of requests and reads exactly the bytes of their responses. */
    private static final class Exchange
    {
        private final Socket socket;
        private final OutputStream out;
        private final InputStream in;
        private final byte[] requests;
        private final byte[] expectedBody;
        private byte[] response = new byte[0];
        private int responseLength = -1;

        Exchange(final int port, final String request, final int batch, final byte[] expectedBody) throws IOException
        {
            socket = new Socket("127.0.0.1", port);
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(30_000);
            out = socket.getOutputStream();
            in = socket.getInputStream();
            requests = request.repeat(batch).getBytes(StandardCharsets.ISO_8859_1);
            this.expectedBody = expectedBody;
            // The first batch tells the length of a response: constant, as the Date field is.
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            final byte[] first = new byte[64 * 1024];
            int n = 0;
            while (n < 4 || !endsWithBody(first, n))
            {
                final int r = in.read(first, n, first.length - n);
                if (r < 0)
                {
                    throw new IOException("closed");
                }
                n += r;
            }
            responseLength = n;
            response = new byte[n * batch];
        }

        private boolean endsWithBody(final byte[] bytes, final int n)
        {
            return n >= expectedBody.length &&
                Arrays.equals(bytes, n - expectedBody.length, n, expectedBody, 0, expectedBody.length);
        }

        void run(final int batches) throws IOException
        {
            for (int b = 0; b < batches; b++)
            {
                out.write(requests);
                int n = 0;
                while (n < response.length)
                {
                    final int r = in.read(response, n, response.length - n);
                    if (r < 0)
                    {
                        throw new IOException("closed after " + n + " bytes");
                    }
                    n += r;
                }
                if (!Arrays.equals(response, response.length - expectedBody.length, response.length,
                    expectedBody, 0, expectedBody.length))
                {
                    throw new IOException("unexpected response: " +
                        new String(response, 0, responseLength, StandardCharsets.ISO_8859_1));
                }
            }
        }

        void close() throws IOException
        {
            socket.close();
        }
    }

    /** Bytes the reactor allocated per window of requests once the JIT is quiet (see {@link SteadyAllocation}). */
    private List<Long> allocatedServing(final String request, final int batch, final byte[] body) throws Exception
    {
        server = new TestServer();
        final Exchange exchange = new Exchange(server.port(), request, batch, body);
        exchange.run(WARMUP / batch);
        final List<Long> windows =
            SteadyAllocation.perWindow(server.reactor.thread(), () -> exchange.run(MEASURED / batch));
        exchange.close();
        return windows;
    }

    @Test
    void keepAliveGetsAllocateNothing() throws Exception
    {
        assertThat(allocatedServing("GET /plaintext HTTP/1.1\r\nHost: localhost\r\n\r\n", 1, TestServer.HELLO))
            .as("bytes allocated by the reactor per window of %d keep-alive GETs", MEASURED).contains(0L);
    }

    @Test
    void pipelinedGetsAllocateNothing() throws Exception
    {
        assertThat(allocatedServing("GET /plaintext HTTP/1.1\r\nHost: localhost\r\n\r\n", 16, TestServer.HELLO))
            .as("bytes allocated by the reactor per window of %d pipelined GETs", MEASURED).contains(0L);
    }

    @Test
    void echoedPostsAllocateNothing() throws Exception
    {
        final byte[] body = TestServer.letters(1024);
        final String request = "POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/octet-stream\r\n" +
            "Content-Length: 1024\r\n\r\n" + new String(body, StandardCharsets.ISO_8859_1);
        assertThat(allocatedServing(request, 1, body))
            .as("bytes allocated by the reactor per window of %d 1 KiB POSTs", MEASURED).contains(0L);
    }
}
