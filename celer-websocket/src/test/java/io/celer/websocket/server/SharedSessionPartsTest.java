package io.celer.websocket.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.celer.http.server.HttpServer;
import io.celer.http.server.HttpServerConfig;
import io.celer.tcp.TcpConfig;
import io.celer.test.Await;
import io.celer.test.Reactors;
import io.celer.websocket.StubUpgrade;
import io.celer.websocket.Utf8Text;
import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketConfig;
import io.celer.websocket.WebSocketHandler;

/**
 * What an idle server session does not hold of its own: the sessions of one reactor hand texts and close reasons
 * over in one view, and the clients of one path share its String, while each session still gets its own text,
 * reason and path.
 */
class SharedSessionPartsTest
{
    private static final int CLIENTS = 3;

    private final Reactors reactors = new Reactors();
    private HttpServer server;

    /** What a handler saw: the path and the view of each text and close reason, with their content then. */
    private record Seen(WebSocket socket, String path, CharSequence view, String content)
    {
    }

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
    void sessionsOfOneReactorShareTheirTextViewAndTheirPathButNotTheirContent() throws Exception
    {
        final List<Seen> seen = new CopyOnWriteArrayList<>();
        final WebSocketHandler recorder = new WebSocketHandler()
        {
            @Override
            public void text(final WebSocket socket, final Utf8Text text)
            {
                seen.add(new Seen(socket, socket.path(), text, text.toString()));
            }

            @Override
            public void closing(final WebSocket socket, final int code, final Utf8Text reason)
            {
                seen.add(new Seen(socket, socket.path(), reason, reason.toString()));
            }
        };
        server = new HttpServer(reactors.start("ws-shared"), 0,
            new HttpServerConfig().tcp(new TcpConfig().bindAddress("127.0.0.1")),
            new WebSocketUpgrade(new WebSocketConfig(), recorder)).open();
        final List<Socket> sockets = new ArrayList<>();
        try
        {
            for (int i = 0; i < CLIENTS; i++)
            {
                final Socket socket = new Socket("127.0.0.1", server.port());
                socket.setSoTimeout(30_000);
                sockets.add(socket);
                socket.getOutputStream().write(WebSocketUpgradeTest.request("/feed/" + (i == CLIENTS - 1 ? "b" : "a"))
                    .getBytes(StandardCharsets.US_ASCII));
                assertThat(StubUpgrade.readHead(socket.getInputStream())).startsWith("HTTP/1.1 101 ");
            }
            // Interleaved: each session's text, then each one's close, while all stay open; each heard before the
            // next is sent, so that they arrive in this order.
            for (int i = 0; i < CLIENTS; i++)
            {
                send(sockets.get(i), WebSocketUpgradeTest.maskedFrame(1, ("text " + i).getBytes(StandardCharsets.UTF_8)));
                final int heard = i + 1;
                Await.until("text " + i, () -> seen.size() == heard);
            }
            for (int i = 0; i < CLIENTS; i++)
            {
                send(sockets.get(i), closeFrame("bye " + i));
                final InputStream in = sockets.get(i).getInputStream();
                assertThat(WebSocketUpgradeTest.readFrame(in)[0]).as("the close answered").isEqualTo((byte)8);
            }
        }
        finally
        {
            for (final Socket socket : sockets)
            {
                socket.close();
            }
        }

        assertThat(seen).hasSize(2 * CLIENTS);
        final List<String> contents = new ArrayList<>();
        for (final Seen one : seen)
        {
            contents.add(one.content());
            assertThat(one.view()).as("one view for every session of the reactor").isSameAs(seen.get(0).view());
        }
        assertThat(contents).containsExactly("text 0", "text 1", "text 2", "bye 0", "bye 1", "bye 2");
        assertThat(seen.get(0).socket()).isNotSameAs(seen.get(1).socket());
        assertThat(seen.get(0).path()).isEqualTo("/feed/a").as("one String for the clients of a path")
            .isSameAs(seen.get(1).path());
        assertThat(seen.get(2).path()).isEqualTo("/feed/b");
    }

    private static void send(final Socket socket, final byte[] frame) throws Exception
    {
        final OutputStream out = socket.getOutputStream();
        out.write(frame);
        out.flush();
    }

    private static byte[] closeFrame(final String reason)
    {
        final byte[] text = reason.getBytes(StandardCharsets.UTF_8);
        final byte[] body = new byte[2 + text.length];
        body[0] = 0x03;
        body[1] = (byte)0xE8;
        System.arraycopy(text, 0, body, 2, text.length);
        return WebSocketUpgradeTest.maskedFrame(8, body);
    }
}
