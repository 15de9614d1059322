package io.celer.http.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import io.celer.http.internal.ChunkedDecoder;
import io.celer.http.internal.HeadScanner;
import io.celer.test.Await;
import io.celer.test.LiveHeap;
import io.celer.test.OnReactor;

/**
 * What an idle keep-alive HTTP connection keeps of Celer's on the server's heap, counted by class in the JVM's
 * histogram after one GET: its TCP connection and its HTTP state between requests (its response pipeline, which
 * the application's responses belong to), and none of a request's parts, no head parser's state and no response
 * output, which are lent per request.
 */
class IdleFootprintTest
{
    private static final int CONNECTIONS = 400;
    private static final byte[] GET = "GET /plaintext HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CHUNKED_POST = ("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        + "5\r\nchunk\r\n0\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    /**
     * Celer's bytes per idle HTTP connection at most, the native transports' objects included, by the transport
     * the run uses ({@code -Dceler.transport}): about 355 on NIO, 420 on epoll and 460 on io_uring as measured
     * on JDK 25 with compressed pointers. Each bound has room for a JDK whose object layout differs, not for a
     * request's parts held by an idle connection.
     */
    private static final Map<String, Long> MAX_BYTES_PER_CONNECTION = Map.of("nio", 384L, "epoll", 448L,
        "uring", 496L);
    private static final String TRANSPORT = System.getProperty("celer.transport", "nio");

    @AutoClose
    private TestServer server;
    private final List<Socket> clients = new ArrayList<>();

    @AfterEach
    void closeClients() throws IOException
    {
        for (final Socket client : clients)
        {
            client.close();
        }
    }

    @Test
    void anIdleKeepAliveConnectionKeepsNoRequestParts() throws Exception
    {
        final Map<String, Long> perConnection = idleGrowth(GET, "Hello, World!");
        final long total = perConnection.values().stream().mapToLong(Long::longValue).sum();
        System.out.printf("an idle HTTP connection keeps %d bytes of Celer's objects: %s%n", total, perConnection);

        assertThat(perConnection).as("a request's parts go back to the reactor's pool once it is read")
            .doesNotContainKeys(HttpRequest.class.getName(), ChunkedDecoder.class.getName(),
                HeadScanner.class.getName());
        assertThat(perConnection).as("the output and its timer go back once the response is sent")
            .doesNotContainKeys(ResponseOutput.class.getName(), ResponseTimer.class.getName());
        assertThat(perConnection).as("without pipelining the one response slot needs no array")
            .doesNotContainKey("[L" + HttpResponse.class.getName() + ";");
        assertThat(total).as("Celer's bytes per idle HTTP connection on %s: %s", TRANSPORT, perConnection)
            .isLessThanOrEqualTo(MAX_BYTES_PER_CONNECTION.get(TRANSPORT));
    }

    @Test
    void aConnectionThatReadAChunkedBodyKeepsNoDecoderOnceIdle() throws Exception
    {
        final Map<String, Long> perConnection = idleGrowth(CHUNKED_POST, "chunk");

        assertThat(perConnection).as("the decoder goes back with the request table it belongs to")
            .doesNotContainKeys(ChunkedDecoder.class.getName(), HttpRequest.class.getName());
    }

    /**
     * Celer's objects per connection that {@value #CONNECTIONS} connections, each after one request, keep while
     * idle, by class; 20 connections first load and compile what a first request needs.
     */
    private Map<String, Long> idleGrowth(final byte[] request, final String answerEnd) throws Exception
    {
        server = new TestServer();
        exchangeOnce(20, request, answerEnd);
        final Map<String, Long> before = LiveHeap.bytesByClass("io.celer.");
        exchangeOnce(CONNECTIONS, request, answerEnd);
        Await.until("every connection open on the server",
            () -> OnReactor.get(server.reactor, () -> server.server.connectionCount()) == clients.size());
        return LiveHeap.growthPer(before, LiveHeap.bytesByClass("io.celer."), CONNECTIONS);
    }

    /**
     * Opens connections one after the other, each with one request answered in full, and keeps them open.
     */
    private void exchangeOnce(final int count, final byte[] request, final String answerEnd) throws IOException
    {
        final byte[] answer = new byte[4096];
        for (int i = 0; i < count; i++)
        {
            final Socket client = new Socket("127.0.0.1", server.port());
            clients.add(client);
            client.setSoTimeout(30_000);
            client.getOutputStream().write(request);
            final InputStream in = client.getInputStream();
            int read = 0;
            while (!new String(answer, 0, read, StandardCharsets.US_ASCII).endsWith(answerEnd))
            {
                final int n = in.read(answer, read, answer.length - read);
                if (n < 0)
                {
                    throw new IOException("closed by the server after " + read + " bytes");
                }
                read += n;
            }
        }
    }
}
