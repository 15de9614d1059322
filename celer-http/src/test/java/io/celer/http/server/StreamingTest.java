package io.celer.http.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * Chunked responses, streamed with back-pressure from a slow reader, and request bodies too large to hold
 * streamed to a listener.
 */
class StreamingTest
{
    private static final int CHUNK = 16 * 1024;
    @AutoClose
    private TestServer server;

    /** Streams a pattern of a given total length, pausing whenever the response refuses a chunk. */
    private static final class PatternStreamer implements WritableListener
    {
        private final long total;
        private final byte[] chunk = new byte[CHUNK];
        private long sent;
        int refusals;

        PatternStreamer(final long total)
        {
            this.total = total;
        }

        void start(final HttpResponse response)
        {
            response.header("Content-Type", "application/octet-stream").beginChunked();
            response.onWritable(this);
            writable(response);
        }

        @Override
        public void writable(final HttpResponse response)
        {
            while (sent < total)
            {
                final int n = (int)Math.min(CHUNK, total - sent);
                for (int i = 0; i < n; i++)
                {
                    chunk[i] = (byte)((sent + i) % 251);
                }
                if (!response.writeChunk(chunk, 0, n))
                {
                    refusals++;
                    return;
                }
                sent += n;
            }
            response.endChunked();
        }
    }

    @Test
    void streamsChunksToHttp11AndUntilCloseToHttp10() throws Exception
    {
        server = new TestServer(new HttpServerConfig(), (req, res) ->
        {
            res.beginChunked();
            res.writeChunk("one,");
            res.writeChunk(ByteBuffer.wrap("two,".getBytes(StandardCharsets.US_ASCII)));
            res.writeChunk("three");
            res.endChunked();
        });
        try (RawClient client = new RawClient(server.port()))
        {
            client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\nHEAD / HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n");
            final RawClient.Response first = client.read();
            assertThat(first.header("Transfer-Encoding")).isEqualTo("chunked");
            assertThat(first.bodyText()).isEqualTo("one,two,three");
            final RawClient.Response head = client.read(true);
            assertThat(head.header("Transfer-Encoding")).isEqualTo("chunked");
            assertThat(client.read().bodyText()).isEqualTo("one,two,three"); // no chunk of the HEAD in between
        }
        try (RawClient client = new RawClient(server.port()))
        {
            client.send("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
            final List<RawClient.Response> responses = client.readUntilClosed();
            assertThat(responses).hasSize(1);
            assertThat(responses.get(0).header("Transfer-Encoding")).isNull();
            assertThat(responses.get(0).header("Connection")).isEqualTo("close");
            assertThat(responses.get(0).bodyText()).isEqualTo("one,two,three");
        }
    }

    @Test
    void streamsAtTheSlowReadersPace() throws Exception
    {
        final long total = 32L * 1024 * 1024;
        final PatternStreamer[] streamer = new PatternStreamer[1];
        server = new TestServer(new HttpServerConfig().tcp(new io.celer.tcp.TcpConfig().socketSendBufferSize(64 * 1024)),
            (req, res) ->
            {
                streamer[0] = new PatternStreamer(total);
                streamer[0].start(res);
            });
        try (Socket socket = new Socket("127.0.0.1", server.port()))
        {
            socket.setReceiveBufferSize(64 * 1024);
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            Thread.sleep(300); // not reading: the server must wait, not buffer 32 MiB
            final InputStream in = new java.io.BufferedInputStream(socket.getInputStream(), 64 * 1024);
            final StringBuilder headLines = new StringBuilder();
            while (!headLines.toString().endsWith("\r\n\r\n"))
            {
                headLines.append((char)in.read());
            }
            assertThat(headLines.toString()).contains("Transfer-Encoding: chunked");
            long received = 0;
            while (true)
            {
                final String sizeLine = readLine(in);
                final int size = Integer.parseInt(sizeLine, 16);
                if (size == 0)
                {
                    readLine(in);
                    break;
                }
                final byte[] data = in.readNBytes(size);
                for (int i = 0; i < size; i++)
                {
                    if (data[i] != (byte)((received + i) % 251))
                    {
                        throw new AssertionError("byte " + (received + i) + " is wrong");
                    }
                }
                received += size;
                readLine(in);
            }
            assertThat(received).isEqualTo(total);
        }
        assertThat(streamer[0].refusals).as("times the response refused a chunk and the streamer waited").isPositive();
    }

    private static String readLine(final InputStream in) throws java.io.IOException
    {
        final StringBuilder sb = new StringBuilder();
        for (int b = in.read(); b != '\n'; b = in.read())
        {
            if (b < 0)
            {
                throw new java.io.EOFException();
            }
            if (b != '\r')
            {
                sb.append((char)b);
            }
        }
        return sb.toString();
    }

    @Test
    void aStreamAnsweredBeforeItsTurnWaitsForTheEarlierResponse() throws Exception
    {
        server = new TestServer(new HttpServerConfig(), (req, res) ->
        {
            if (req.pathEquals("/late"))
            {
                res.connection().reactor().schedule(200, (id, now) -> res.body("late"));
            }
            else
            {
                res.beginChunked();
                res.writeChunk("early ");
                res.writeChunk("stream");
                res.endChunked();
            }
        });
        try (RawClient client = new RawClient(server.port()))
        {
            client.send("GET /late HTTP/1.1\r\nHost: x\r\n\r\nGET /s HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(client.read().bodyText()).isEqualTo("late");
            assertThat(client.read().bodyText()).isEqualTo("early stream");
        }
    }

    @Test
    void streamsLargeRequestBodiesToAListener() throws Exception
    {
        server = new TestServer(new HttpServerConfig().maxHeldBodySize(1024).maxBodySize(10L * 1024 * 1024));
        try (RawClient client = new RawClient(server.port()))
        {
            final int length = 3 * 1024 * 1024;
            client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: " + length + "\r\n\r\n");
            client.send(new byte[length]);
            assertThat(client.read().bodyText()).isEqualTo("streamed " + length);

            final StringBuilder chunked = new StringBuilder("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n");
            for (int i = 0; i < 100; i++)
            {
                chunked.append("100;i=").append(i).append("\r\n").append("c".repeat(256)).append("\r\n");
            }
            chunked.append("0\r\nT: 1\r\n\r\n");
            client.send(chunked + "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc");
            assertThat(client.read().bodyText()).isEqualTo("streamed " + 100 * 256);
            assertThat(client.read().bodyText()).isEqualTo("abc");
        }
    }

    @Test
    void holdsAChunkedBodyWhoseFramingOutgrowsTheReadBuffer() throws Exception
    {
        // One-byte chunks with long extensions: some 300 KiB of framing for 2 KiB of body, through a 64 KiB buffer.
        server = new TestServer(new HttpServerConfig().maxHeldBodySize(4096));
        try (RawClient client = new RawClient(server.port()))
        {
            final StringBuilder chunked = new StringBuilder("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n");
            final StringBuilder expected = new StringBuilder();
            for (int i = 0; i < 2048; i++)
            {
                final char c = (char)('a' + i % 26);
                chunked.append("1;ext=").append("e".repeat(140)).append("\r\n").append(c).append("\r\n");
                expected.append(c);
            }
            client.send(chunked.append("0\r\n\r\n").toString());
            assertThat(client.read().bodyText()).isEqualTo(expected.toString());
        }
    }
}
