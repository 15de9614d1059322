package io.celer.http.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorConfig;
import io.celer.tcp.TcpConfig;
import io.celer.test.Await;
import io.celer.test.Reactors;

/**
 * Response backlogs count in the reactor's bound on large buffers ({@link ReactorConfig#maxLargeBufferBytes}),
 * over real sockets: peers that read nothing hold backlogs up to the bound, the next one that needs a backlog is
 * closed and counted as a refusal, and a backlog's bytes go back once its connection closes. Request bodies need
 * no such count: they are held in the connection's read buffer up to {@code maxHeldBodySize} and streamed beyond.
 */
class ResponseBacklogBudgetTest
{
    private static final int KIB = 1024;
    private static final int BACKLOG = 512 * KIB;
    private static final byte[] BODY = new byte[300 * KIB];
    /** The server closes the connection once the response went out. */
    private static final byte[] GET = "GET /big HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n"
        .getBytes(StandardCharsets.US_ASCII);

    private final Reactors reactors = new Reactors();
    private HttpServer server;
    private Reactor reactor;

    @AfterEach
    void stop()
    {
        if (server != null)
        {
            server.close();
        }
        reactors.close();
    }

    /** A peer that asks for the large response and reads nothing, its receive buffer small. */
    private Socket notReading() throws IOException
    {
        final Socket socket = new Socket();
        socket.setReceiveBufferSize(8 * KIB);
        socket.connect(new InetSocketAddress("127.0.0.1", server.port()), 10_000);
        socket.setSoTimeout(30_000);
        socket.getOutputStream().write(GET);
        return socket;
    }

    /** Reads until the end of the stream. */
    private static long drain(final InputStream in) throws IOException
    {
        long total = 0;
        final byte[] buffer = new byte[64 * KIB];
        for (int n; (n = in.read(buffer)) >= 0; )
        {
            total += n;
        }
        return total;
    }

    @Test
    void aBacklogBeyondTheReactorsBoundClosesItsConnectionAndTheOthersAreServedWhole() throws Exception
    {
        reactor = reactors.start(new ReactorConfig().name("http-budget").maxLargeBufferBytes(2L * BACKLOG));
        server = new HttpServer(reactor, 0, new HttpServerConfig().responseBufferSize(BACKLOG)
            .tcp(new TcpConfig().bindAddress("127.0.0.1").socketSendBufferSize(64 * KIB)),
            (req, res) -> res.body(BODY)).open();
        try (Socket first = notReading(); Socket second = notReading())
        {
            Await.until("two backlogs held", () -> reactor.largeBufferBytes() == 2L * BACKLOG);

            // A third finds the bound reached: closed, its response cut short, counted.
            try (Socket third = notReading())
            {
                assertThat(drain(third.getInputStream())).as("bytes before the close").isLessThan(BODY.length);
            }
            assertThat(reactor.largeBufferRefusals()).isEqualTo(1);
            assertThat(reactor.largeBufferBytes()).isEqualTo(2L * BACKLOG);

            // The first reads its response, whole, and the server closes: its backlog's bytes go back.
            assertThat(drain(first.getInputStream())).as("the response, its head included")
                .isGreaterThan(BODY.length).isLessThan(BODY.length + 1024);
            Await.until("the first backlog given back", () -> reactor.largeBufferBytes() == BACKLOG);

            // So another peer gets a backlog again.
            try (Socket fourth = notReading())
            {
                Await.until("a backlog held again", () -> reactor.largeBufferBytes() == 2L * BACKLOG);
                assertThat(reactor.largeBufferRefusals()).isEqualTo(1);
            }
        }
        Await.until("nothing held once every connection closed", () -> reactor.largeBufferBytes() == 0);
    }

    @Test
    void aKeptAliveConnectionGivesItsBacklogBackOnceTheResponseIsTaken() throws Exception
    {
        reactor = reactors.start(new ReactorConfig().name("http-budget").maxLargeBufferBytes(2L * BACKLOG));
        server = new HttpServer(reactor, 0, new HttpServerConfig().responseBufferSize(BACKLOG)
            .tcp(new TcpConfig().bindAddress("127.0.0.1").socketSendBufferSize(64 * KIB)),
            (req, res) -> res.body(BODY)).open();
        final byte[] keepAlive = "GET /big HTTP/1.1\r\nHost: test\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        try (Socket socket = new Socket())
        {
            socket.setReceiveBufferSize(8 * KIB);
            socket.connect(new InetSocketAddress("127.0.0.1", server.port()), 10_000);
            socket.setSoTimeout(30_000);
            for (int round = 0; round < 2; round++)
            {
                socket.getOutputStream().write(keepAlive);
                Await.until("a backlog held", () -> reactor.largeBufferBytes() == BACKLOG);
                readResponse(socket.getInputStream());
                // Still open, idle: it holds no large buffer, and the reactor's bound counts nothing for it.
                Await.until("the backlog given back", () -> reactor.largeBufferBytes() == 0);
            }
            assertThat(reactor.largeBufferRefusals()).isZero();
        }
    }

    /** Reads one response whose body is {@link #BODY}'s length: its head, then the body. */
    private static void readResponse(final InputStream in) throws IOException
    {
        final StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n"))
        {
            final int b = in.read();
            assertThat(b).as("the head before the end of the stream").isNotNegative();
            head.append((char)b);
        }
        assertThat(head.toString()).contains("Content-Length: " + BODY.length);
        assertThat(in.readNBytes(BODY.length)).hasSize(BODY.length);
    }
}
