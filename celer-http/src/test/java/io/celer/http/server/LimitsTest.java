package io.celer.http.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.List;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * Each limit answers its status and closes; the slow and the idle are timed out; bad settings fail fast.
 */
class LimitsTest
{
    private static final String NEXT = "GET /ok HTTP/1.1\r\nHost: x\r\n\r\n";
    /** Attempts of an idle-timeout test before a connection closed too soon counts as a failure. */
    private static final int STALLED_ATTEMPTS = 3;
    @AutoClose
    private TestServer server;

    private List<RawClient.Response> exchange(final String request) throws Exception
    {
        try (RawClient client = new RawClient(server.port()))
        {
            client.send(request);
            return client.readUntilClosed();
        }
    }

    @Test
    void requestLineTooLong() throws Exception
    {
        server = new TestServer();
        final String path = "/" + "a".repeat(8 * 1024);
        assertThat(exchange("GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n" + NEXT))
            .extracting(r -> r.status).containsExactly(414);
        // Also before its end arrives: the limit is enforced as bytes come.
        assertThat(exchange("GET " + path + path)).extracting(r -> r.status).containsExactly(414);
    }

    @Test
    void requestLineAtTheLimitIsServed() throws Exception
    {
        server = new TestServer(new HttpServerConfig().maxRequestLineLength(100));
        final String line = "GET /ok?" + "q".repeat(100 - 18) + " HTTP/1.1\r\n"; // 100 bytes before the LF
        assertThat(line.length()).isEqualTo(101);
        try (RawClient client = new RawClient(server.port()))
        {
            client.send(line + "Host: x\r\n\r\n");
            assertThat(client.read().bodyText()).isEqualTo("ok");
        }
        assertThat(exchange(line.replace("?", "?q") + "Host: x\r\n\r\n")).extracting(r -> r.status).containsExactly(414);
    }

    @Test
    void headerSectionTooLarge() throws Exception
    {
        server = new TestServer();
        final String field = "X-Big: " + "b".repeat(17 * 1024) + "\r\n";
        assertThat(exchange("GET /ok HTTP/1.1\r\nHost: x\r\n" + field + "\r\n" + NEXT))
            .extracting(r -> r.status).containsExactly(431);
    }

    @Test
    void tooManyHeaderFields() throws Exception
    {
        server = new TestServer(new HttpServerConfig().maxHeaderCount(10));
        final StringBuilder fields = new StringBuilder();
        for (int i = 0; i < 10; i++)
        {
            fields.append("X-").append(i).append(": v\r\n");
        }
        assertThat(exchange("GET /ok HTTP/1.1\r\nHost: x\r\n" + fields + "\r\n" + NEXT))
            .extracting(r -> r.status).containsExactly(431);
    }

    @Test
    void bodyTooLarge() throws Exception
    {
        server = new TestServer(new HttpServerConfig().maxBodySize(1000));
        assertThat(exchange("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1001\r\n\r\n" + "x".repeat(1001) + NEXT))
            .extracting(r -> r.status).containsExactly(413);
        assertThat(exchange("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" +
            "3e8\r\n" + "x".repeat(1000) + "\r\n1\r\nx\r\n0\r\n\r\n" + NEXT))
            .extracting(r -> r.status).containsExactly(413);
    }

    @Test
    void trailersTooLarge() throws Exception
    {
        server = new TestServer(new HttpServerConfig().maxHeaderSectionSize(100));
        assertThat(exchange("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" +
            "0\r\nT: " + "t".repeat(200) + "\r\n\r\n" + NEXT)).extracting(r -> r.status).containsExactly(431);
    }

    @Test
    void chunkLineTooLong() throws Exception
    {
        server = new TestServer(new HttpServerConfig().maxChunkLineLength(64));
        assertThat(exchange("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" +
            "1;ext=" + "e".repeat(100) + "\r\nx\r\n0\r\n\r\n" + NEXT)).extracting(r -> r.status).containsExactly(400);
    }

    @Test
    void slowHeadIsTimedOut() throws Exception
    {
        server = new TestServer(new HttpServerConfig().requestHeadTimeoutMillis(300));
        try (RawClient client = new RawClient(server.port()))
        {
            client.send("GET /ok HTTP/1.1\r\nHost: x\r\nX-Slow: ");
            // Still dribbling, a byte every 50 ms, until the answer: the clock runs from the head's first byte, so
            // the 408 comes however often a byte arrives. A clock that started again with each byte would never end.
            assert408WhileDribbling(client, "a",
                "no answer while the head went on dribbling: its clock must run from its first byte, not from its last");
        }
    }

    @Test
    void emptyLinesBeforeAHeadCountTowardItsTimeout() throws Exception
    {
        server = new TestServer(new HttpServerConfig().requestHeadTimeoutMillis(300));
        try (RawClient client = new RawClient(server.port()))
        {
            // RFC 9112 lets a server skip empty lines before a request, not wait for them forever: a CRLF every
            // 50 ms refreshes no clock, and the head's timeout runs from the first.
            assert408WhileDribbling(client, "\r\n", "no answer while empty lines went on arriving");
        }
    }

    @Test
    void aStreamedBodyTooSlowEndsIn408() throws Exception
    {
        server = new TestServer(new HttpServerConfig().maxHeldBodySize(1024).minBodyRate(1_000, 300));
        try (RawClient client = new RawClient(server.port()))
        {
            client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n" + "b".repeat(2048));
            // 20 bytes a second, far below the 1,000 asked for: each byte keeps the connection from being idle,
            // but not the body from being too slow.
            assert408WhileDribbling(client, "b", "no answer while the body trickled in");
        }
    }

    @Test
    void aStreamedBodyAtTheMinimumRateIsServed() throws Exception
    {
        server = new TestServer(new HttpServerConfig().maxHeldBodySize(1024).minBodyRate(1_000, 300));
        try (RawClient client = new RawClient(server.port()))
        {
            client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 20000\r\n\r\n");
            for (int i = 0; i < 20; i++)
            {
                client.send("c".repeat(1000)); // 10,000 bytes a second
                Thread.sleep(100);
            }
            final RawClient.Response response = client.read();
            assertThat(response.status).isEqualTo(200);
            assertThat(response.bodyText()).isEqualTo("streamed 20000");
        }
    }

    /**
     * Keeps sending some text every 50 ms while waiting for the answer, which must be a 408 followed by the close.
     */
    private static void assert408WhileDribbling(final RawClient client, final String text, final String noAnswer)
        throws Exception
    {
        final Thread dribbler = new Thread(() -> dribble(client, text), "dribbler");
        dribbler.setDaemon(true);
        dribbler.start();
        try
        {
            final RawClient.Response response;
            try
            {
                response = client.read();
            }
            catch (final SocketTimeoutException ex)
            {
                throw new AssertionError(noAnswer, ex);
            }
            assertThat(response).as("an answer before the connection closed").isNotNull();
            assertThat(response.status).isEqualTo(408);
            assertThat(client.isClosedByPeer()).as("closed after the 408").isTrue();
        }
        finally
        {
            dribbler.interrupt();
            dribbler.join();
        }
    }

    /** Sends some text every 50 ms until interrupted or the server is gone. */
    private static void dribble(final RawClient client, final String text)
    {
        try
        {
            while (!Thread.currentThread().isInterrupted())
            {
                Thread.sleep(50);
                client.send(text);
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        catch (final IOException ex)
        {
            // the server closed the connection
        }
    }

    @Test
    void idleKeepAliveConnectionIsClosedSilently() throws Exception
    {
        server = new TestServer(new HttpServerConfig().idleTimeoutMillis(300));
        for (int attempt = 1; ; attempt++)
        {
            try (RawClient client = new RawClient(server.port()))
            {
                final RawClient.Response response = exchangeUnlessStalled(client, attempt);
                if (response != null)
                {
                    assertThat(response.bodyText()).isEqualTo("ok");
                    assertThat(client.isClosedByPeer()).isTrue();
                    return;
                }
            }
        }
    }

    @Test
    void silentStreamedUploadIsClosed() throws Exception
    {
        server = new TestServer(new HttpServerConfig().idleTimeoutMillis(300).maxHeldBodySize(16));
        try (RawClient client = new RawClient(server.port()))
        {
            client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n" + "x".repeat(100));
            assertThat(client.isClosedByPeer()).isTrue();
        }
    }

    @Test
    void busyConnectionIsNotIdle() throws Exception
    {
        // Twenty requests 50 ms apart keep a connection busy for over twice its idle timeout.
        server = new TestServer(new HttpServerConfig().idleTimeoutMillis(400));
        for (int attempt = 1; ; attempt++)
        {
            try (RawClient client = new RawClient(server.port()))
            {
                int served = 0;
                for (RawClient.Response response; served < 20 &&
                    (response = exchangeUnlessStalled(client, attempt)) != null; served++)
                {
                    assertThat(response.bodyText()).isEqualTo("ok");
                    Thread.sleep(50);
                }
                if (served == 20)
                {
                    return;
                }
            }
        }
    }

    /**
     * Sends a GET and reads its response; null when the connection closed before it, which only the first attempts
     * may see: a machine that stalls the client, or the server's reactor, for longer than the idle timeout makes a
     * connection idle that the test meant to keep busy. A server that closes busy connections does so every time.
     */
    private static RawClient.Response exchangeUnlessStalled(final RawClient client, final int attempt)
        throws Exception
    {
        IOException closed = null;
        try
        {
            client.send(NEXT);
            final RawClient.Response response = client.read();
            if (response != null)
            {
                return response;
            }
        }
        catch (final SocketException ex)
        {
            closed = ex; // reset: the server closed the connection with the request unread
        }
        if (attempt >= STALLED_ATTEMPTS)
        {
            throw new AssertionError("the connection closed before its response, on each of " + attempt +
                " attempts", closed);
        }
        System.out.printf("attempt %d: the connection closed before its response; the machine stalled%n", attempt);
        return null;
    }

    @Test
    void badSettingsFailFast()
    {
        assertThatThrownBy(() -> new HttpServerConfig().maxHeaderCount(0))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxHeaderCount");
        assertThatThrownBy(() -> new HttpServerConfig().requestHeadTimeoutMillis(0))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("requestHeadTimeoutMillis");
        assertThatThrownBy(() -> new HttpServerConfig().serverName("bad\r\nname"))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("serverName");
        assertThatThrownBy(() -> new HttpServerConfig().readBufferSize(16 * 1024).check())
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("readBufferSize");
        assertThatThrownBy(() -> new HttpServerConfig().tcp(null)).isInstanceOf(IllegalArgumentException.class);
    }
}
