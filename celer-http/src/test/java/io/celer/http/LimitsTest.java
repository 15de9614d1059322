package io.celer.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * Each limit answers its status and closes; the slow and the idle are timed out; bad settings fail fast.
 */
class LimitsTest
{
    private static final String NEXT = "GET /ok HTTP/1.1\r\nHost: x\r\n\r\n";
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
            client.send("GET /ok HTTP/1.1\r\nHo");
            Thread.sleep(150);
            client.send("st: x\r\n"); // still dribbling: the clock runs from the head's first byte
            final long start = System.nanoTime();
            final List<RawClient.Response> responses = client.readUntilClosed();
            assertThat(responses).extracting(r -> r.status).containsExactly(408);
            assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(10_000);
        }
    }

    @Test
    void idleKeepAliveConnectionIsClosedSilently() throws Exception
    {
        server = new TestServer(new HttpServerConfig().idleTimeoutMillis(300));
        try (RawClient client = new RawClient(server.port()))
        {
            client.send(NEXT);
            assertThat(client.read().bodyText()).isEqualTo("ok");
            assertThat(client.isClosedByPeer()).isTrue();
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
        server = new TestServer(new HttpServerConfig().idleTimeoutMillis(400));
        try (RawClient client = new RawClient(server.port()))
        {
            for (int i = 0; i < 8; i++)
            {
                client.send(NEXT);
                assertThat(client.read().bodyText()).isEqualTo("ok");
                Thread.sleep(100);
            }
        }
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
