package io.celer.websocket.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.celer.http.HttpMethod;
import io.celer.http.server.HttpServer;
import io.celer.http.server.HttpServerConfig;
import io.celer.http.server.Router;
import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorConfig;
import io.celer.tcp.TcpConfig;
import io.celer.test.Await;
import io.celer.test.Reactors;
import io.celer.websocket.CloseCode;
import io.celer.websocket.StubUpgrade;
import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketConfig;
import io.celer.websocket.WebSocketHandler;

/**
 * The reactor's bound on large message buffers, over real sockets: clients that each gather a large message at
 * once past the bound are refused with 1009, the others' messages go through, and the bytes come back after.
 */
class LargeMessageBudgetTest
{
    private static final int MIB = 1 << 20;

    private final Reactors reactors = new Reactors();
    private final BlockingQueue<Integer> closes = new LinkedBlockingQueue<>();
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

    private int serve(final long maxLargeBufferBytes)
    {
        reactor = reactors.start(new ReactorConfig().name("ws-budget").maxLargeBufferBytes(maxLargeBufferBytes));
        final WebSocketUpgrade upgrade = new WebSocketUpgrade(new WebSocketConfig().maxMessageLength(2 * MIB),
            new WebSocketHandler()
            {
                @Override
                public void binary(final WebSocket socket, final ByteBuffer message)
                {
                    socket.sendText("got " + message.remaining());
                }

                @Override
                public void closed(final WebSocket socket, final int code)
                {
                    closes.add(code);
                }
            });
        server = new HttpServer(reactor, 0, new HttpServerConfig().tcp(new TcpConfig().bindAddress("127.0.0.1")),
            Router.builder().prefix(HttpMethod.GET, "/ws", upgrade).build()).open();
        return server.port();
    }

    private static Socket upgraded(final int port) throws IOException
    {
        final Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(30_000);
        socket.getOutputStream().write(WebSocketUpgradeTest.request("/ws").getBytes(StandardCharsets.US_ASCII));
        StubUpgrade.skipHead(socket.getInputStream());
        return socket;
    }

    /** A masked client frame (the zero mask: the payload goes as it is) of zeros. */
    private static void frame(final Socket socket, final int opcode, final boolean fin, final int length)
        throws IOException
    {
        final ByteBuffer header = ByteBuffer.allocate(14);
        header.put((byte)((fin ? 0x80 : 0) | opcode));
        if (length < 126)
        {
            header.put((byte)(0x80 | length)); // the shortest form, as RFC 6455 requires
        }
        else
        {
            header.put((byte)(0x80 | 127)).putLong(length);
        }
        header.putInt(0);
        final OutputStream out = socket.getOutputStream();
        out.write(header.array(), 0, header.position());
        out.write(new byte[length]);
        out.flush();
    }

    private static String readText(final Socket socket) throws IOException
    {
        final byte[] frame = WebSocketUpgradeTest.readFrame(socket.getInputStream());
        assertThat(frame[0]).as("a text frame").isEqualTo((byte)0x1);
        return new String(frame, 1, frame.length - 1, StandardCharsets.UTF_8);
    }

    private static int readCloseCode(final Socket socket) throws IOException
    {
        final DataInputStream in = new DataInputStream(socket.getInputStream());
        assertThat(in.readUnsignedByte()).as("a close frame").isEqualTo(0x88);
        assertThat(in.readUnsignedByte()).isGreaterThanOrEqualTo(2);
        return in.readUnsignedShort();
    }

    @Test
    void largeMessagesPastTheReactorsBoundAreRefusedWith1009AndTheOthersGoThrough() throws Exception
    {
        final int port = serve(4L * MIB);
        final List<Socket> holders = new ArrayList<>();
        try
        {
            // Four clients each gather a megabyte of a message not yet finished: the bound is reached.
            for (int i = 0; i < 4; i++)
            {
                final Socket socket = upgraded(port);
                holders.add(socket);
                frame(socket, 0x2, false, MIB);
            }
            Await.until("four large buffers held", () -> reactor.largeBufferBytes() == 4L * MIB);

            // A fifth large message finds no room: refused with 1009 and the connection closed.
            try (Socket refused = upgraded(port))
            {
                frame(refused, 0x2, false, MIB);
                assertThat(readCloseCode(refused)).isEqualTo(CloseCode.MESSAGE_TOO_BIG);
            }
            assertThat(closes.poll(30, TimeUnit.SECONDS)).isEqualTo(CloseCode.MESSAGE_TOO_BIG);
            assertThat(reactor.largeBufferRefusals()).isEqualTo(1);

            // The four finish their messages, which are delivered whole; their buffers go back.
            for (final Socket socket : holders)
            {
                frame(socket, 0x0, true, 0);
                assertThat(readText(socket)).isEqualTo("got " + MIB);
            }
            Await.until("the large buffers given back", () -> reactor.largeBufferBytes() == 0);

            // And a large message has room again.
            try (Socket later = upgraded(port))
            {
                frame(later, 0x2, false, MIB);
                frame(later, 0x0, true, MIB / 2);
                assertThat(readText(later)).isEqualTo("got " + (MIB + MIB / 2));
            }
        }
        finally
        {
            for (final Socket socket : holders)
            {
                socket.close();
            }
        }
        Await.until("nothing held once every connection closed", () -> reactor.largeBufferBytes() == 0);
    }

    @Test
    void theBoundIsAtLeastOneByteAndAtMostAnEighthOfTheHeapByDefault()
    {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new ReactorConfig().maxLargeBufferBytes(0))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxLargeBufferBytes");
        final Reactor fresh = reactors.start(new ReactorConfig().name("ws-budget-default"));
        assertThat(fresh.internals().largeBuffers().max())
            .isEqualTo(Math.min(64L * MIB, Runtime.getRuntime().maxMemory() / 8));
    }

    @Test
    void aConnectionThatClosesInTheMiddleOfALargeMessageGivesItsBytesBack() throws Exception
    {
        final int port = serve(4L * MIB);
        try (Socket socket = upgraded(port))
        {
            frame(socket, 0x2, false, MIB);
            Await.until("a large buffer held", () -> reactor.largeBufferBytes() == MIB);
        }
        assertThat(closes.poll(30, TimeUnit.SECONDS)).isEqualTo(CloseCode.ABNORMAL);
        assertThat(reactor.largeBufferBytes()).isZero();
    }
}
