package io.celer.websocket.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.celer.http.server.HttpServer;
import io.celer.http.server.HttpServerConfig;
import io.celer.reactor.Reactor;
import io.celer.tcp.TcpConfig;
import io.celer.test.Await;
import io.celer.test.OnReactor;
import io.celer.test.Reactors;
import io.celer.websocket.EchoHandler;
import io.celer.websocket.StubUpgrade;
import io.celer.websocket.WebSocketConfig;
import io.celer.websocket.server.WebSocketUpgrade;

/**
 * A server session borrows a frame decoder from its reactor thread only while a frame or a fragmented message is
 * partly read, and gives it back between messages and at its close; sessions mid-message at once each hold their
 * own, and get their own messages whole.
 */
class FrameDecoderLendingTest
{
    private final Reactors reactors = new Reactors();
    private Reactor reactor;
    private HttpServer server;

    @AfterEach
    void stop()
    {
        if (server != null)
        {
            server.close();
        }
        reactors.close();
    }

    @Test
    void aFrameSplitAcrossReadsHoldsADecoderUntilItEnds() throws Exception
    {
        start();
        try (Socket client = upgraded())
        {
            final byte[] frame = StubUpgrade.maskedFrame(true, 1, "split".getBytes(StandardCharsets.UTF_8));
            send(client, Arrays.copyOfRange(frame, 0, 8)); // the header and two bytes of payload
            Await.until("a decoder lent for the payload in parts", () -> lent() == 1);
            send(client, Arrays.copyOfRange(frame, 8, frame.length));
            assertThat(text(client)).isEqualTo("split");
            Await.until("the decoder back between messages", () -> lent() == 0);
        }
    }

    @Test
    void sessionsMidMessageAtOnceHoldTheirOwnAndGetTheirOwnMessages() throws Exception
    {
        start();
        try (Socket a = upgraded(); Socket b = upgraded())
        {
            send(a, StubUpgrade.maskedFrame(false, 1, "a-first ".getBytes(StandardCharsets.UTF_8)));
            send(b, StubUpgrade.maskedFrame(false, 1, "b-first ".getBytes(StandardCharsets.UTF_8)));
            Await.until("a decoder for each fragmented message", () -> lent() == 2);
            send(b, StubUpgrade.maskedFrame(true, 0, "b-last".getBytes(StandardCharsets.UTF_8)));
            assertThat(text(b)).isEqualTo("b-first b-last");
            Await.until("b's decoder back", () -> lent() == 1);
            send(a, StubUpgrade.maskedFrame(true, 0, "a-last".getBytes(StandardCharsets.UTF_8)));
            assertThat(text(a)).isEqualTo("a-first a-last");
            Await.until("a's decoder back", () -> lent() == 0);

            // Whole messages from then on: each session takes a decoder and gives it back within the read.
            for (int i = 0; i < 3; i++)
            {
                send(a, StubUpgrade.maskedFrame(true, 1, ("again " + i).getBytes(StandardCharsets.UTF_8)));
                assertThat(text(a)).isEqualTo("again " + i);
            }
            assertThat(lent()).isZero();
        }
    }

    @Test
    void aSessionClosedMidFrameGivesItsDecoderBack() throws Exception
    {
        start();
        try (Socket client = upgraded())
        {
            final byte[] frame = StubUpgrade.maskedFrame(true, 2, new byte[1000]);
            send(client, Arrays.copyOfRange(frame, 0, 500));
            Await.until("a decoder lent for the frame in parts", () -> lent() == 1);
        }
        Await.until("the connection closed", () -> server.connectionCount() == 0);
        Await.until("the decoder back at the close", () -> lent() == 0);
    }

    private void start()
    {
        reactor = reactors.start("ws-decoders");
        server = new HttpServer(reactor, 0, new HttpServerConfig().tcp(new TcpConfig().bindAddress("127.0.0.1")),
            new WebSocketUpgrade(new WebSocketConfig(), new EchoHandler())).open();
    }

    private int lent()
    {
        return OnReactor.get(reactor, () -> FrameDecoders.forCurrentThread().lent());
    }

    private Socket upgraded() throws IOException
    {
        final Socket client = new Socket("127.0.0.1", server.port());
        client.setTcpNoDelay(true);
        client.setSoTimeout(30_000);
        client.getOutputStream().write(StubUpgrade.REQUEST.getBytes(StandardCharsets.US_ASCII));
        assertThat(StubUpgrade.readHead(client.getInputStream())).startsWith("HTTP/1.1 101 ");
        return client;
    }

    private static void send(final Socket client, final byte[] bytes) throws IOException
    {
        final OutputStream out = client.getOutputStream();
        out.write(bytes);
        out.flush();
    }

    /** Reads one unmasked text frame of under 126 bytes. */
    private static String text(final Socket client) throws IOException
    {
        final InputStream in = client.getInputStream();
        assertThat(in.read()).as("a final text frame").isEqualTo(0x81);
        final int length = in.read();
        return new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }
}
