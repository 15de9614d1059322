package io.celer.websocket.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.reactor.Reactor;
import io.celer.tcp.TcpClient;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;
import io.celer.test.Await;
import io.celer.test.Reactors;
import io.celer.websocket.RecordingWebSocketHandler;
import io.celer.websocket.StubUpgrade;
import io.celer.websocket.WebSocketConfig;
import io.celer.websocket.WebSocketHandler;

/**
 * The sessions of one reactor encode their frames in one staging buffer instead of one each, and still behave as
 * if each had its own: a frame too large for a connection's write buffer is refused as before, and interleaved
 * sends of many sessions reach each peer intact.
 */
class FrameStagingTest
{
    private static final int SMALL_WRITE_BUFFER = 4 * 1024;
    private static final int CLIENTS = 4;

    @RegisterExtension
    final Reactors reactors = new Reactors();

    @Test
    void sessionsOfOneReactorShareTheStagingBufferWithinTheirOwnWriteBuffersLimits() throws InterruptedException
    {
        final Reactor server = reactors.start("server");
        final Reactor client = reactors.start("client");
        final List<WebSocketSession> sessions = new CopyOnWriteArrayList<>();
        final TcpConfig large = new TcpConfig().bindAddress("127.0.0.1");
        final TcpConfig small = large.copy().writeBufferSize(SMALL_WRITE_BUFFER);
        final int largePort = serve(server, large, sessions);
        final int smallPort = serve(server, small, sessions);
        final List<RecordingWebSocketHandler> peers = new CopyOnWriteArrayList<>();
        for (int i = 0; i < CLIENTS; i++)
        {
            final RecordingWebSocketHandler peer = new RecordingWebSocketHandler(false);
            peers.add(peer);
            new TcpClient(client, "127.0.0.1", i % 2 == 0 ? largePort : smallPort, new TcpConfig(),
                new StubUpgrade(false, () -> WebSocketSession.client(new WebSocketConfig(), peer))).open();
        }
        Await.until(() -> "sessions open: " + sessions.size(), () -> sessions.size() == CLIENTS &&
            allOpen(server, sessions), Duration.ofSeconds(30));

        server.call(() ->
        {
            final ByteBuffer first = sessions.get(0).frames();
            for (final WebSocketSession session : sessions)
            {
                assertThat(session.frames()).as("one staging buffer per thread").isSameAs(first);
                assertThat(session.frames().limit()).isEqualTo(session.connection().writeBufferCapacity());
            }
        });
        final WebSocketSession smallOne = sessions.stream()
            .filter(s -> s.connection().writeBufferCapacity() == SMALL_WRITE_BUFFER).findFirst().orElseThrow();
        assertThatThrownBy(() -> server.call(() -> smallOne.sendBinary(ByteBuffer.allocate(SMALL_WRITE_BUFFER))))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not fit the write buffer of " + SMALL_WRITE_BUFFER);

        // Each session's message, interleaved with the others', reaches its own peer whole.
        server.call(() ->
        {
            for (int round = 0; round < 3; round++)
            {
                for (int i = 0; i < sessions.size(); i++)
                {
                    sessions.get(i).sendText("session " + sessions.get(i).connection().id() + " round " + round);
                    sessions.get(i).flush();
                }
            }
        });
        for (final RecordingWebSocketHandler peer : peers)
        {
            assertThat(peer.next()).isEqualTo("opened");
            final String first = peer.next();
            assertThat(first).matches("text:session \\d+ round 0");
            final String id = first.split(" ")[1];
            assertThat(peer.next()).isEqualTo("text:session " + id + " round 1");
            assertThat(peer.next()).isEqualTo("text:session " + id + " round 2");
        }
    }

    private static boolean allOpen(final Reactor reactor, final List<WebSocketSession> sessions)
    {
        final boolean[] open = new boolean[1];
        reactor.call(() -> open[0] = sessions.stream().allMatch(WebSocketSession::isOpen));
        return open[0];
    }

    private static int serve(final Reactor reactor, final TcpConfig tcp, final List<WebSocketSession> sessions)
    {
        return new TcpServer(reactor, 0, tcp, new StubUpgrade(true, () ->
        {
            final WebSocketSession session = WebSocketSession.server(new WebSocketConfig(), new WebSocketHandler()
            {
            });
            sessions.add(session);
            return session;
        })).open().port();
    }
}
