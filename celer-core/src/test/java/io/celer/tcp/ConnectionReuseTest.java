package io.celer.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.framing.LineFraming;
import io.celer.reactor.Reactor;
import io.celer.test.Await;
import io.celer.test.OnReactor;
import io.celer.test.Reactors;
import io.celer.test.Transports;

/**
 * With {@link TcpConfig#reuseConnections}, a server's closed connection serves a later accept once its handler
 * has heard of the close and its socket is closed, and not before: each use has an id of its own, its own peer's
 * address, until its handler's {@code closed} returns, and none of the last one's attachment. A TLS connection is
 * never reused; without it, no connection is.
 */
class ConnectionReuseTest
{
    @RegisterExtension
    final Reactors reactors = new Reactors();

    /** One use of a connection object, as its handler saw it. */
    private record Use(Connection connection, long id, InetSocketAddress openedBy, InetSocketAddress closedBy,
        Object attachmentAtOpen)
    {
    }

    /** Echoes each line, answers "bye" with "bye" and closes; records each use of each object. */
    private static final class ByeHandler implements Handler
    {
        final List<Use> uses = new CopyOnWriteArrayList<>();
        final AtomicInteger closed = new AtomicInteger();
        private InetSocketAddress openedBy;
        private Object attachmentAtOpen;

        @Override
        public void opened(final Connection connection)
        {
            openedBy = connection.remoteAddress();
            attachmentAtOpen = connection.attachment();
            connection.attach("taken");
        }

        @Override
        public void message(final Connection connection, final ByteBuffer message)
        {
            final String text = StandardCharsets.US_ASCII.decode(message).toString();
            if (text.equals("bye") && connection.isOpen())
            {
                connection.send("bye"); // the framing ends the line
                connection.close();
            }
            else if (connection.isOpen())
            {
                connection.send(text);
            }
        }

        @Override
        public void closed(final Connection connection, final CloseReason reason)
        {
            uses.add(new Use(connection, connection.id(), openedBy, connection.remoteAddress(), attachmentAtOpen));
            closed.incrementAndGet();
        }
    }

    private TcpServer server(final ByeHandler handler, final boolean reuse)
    {
        return server(handler, reuse, Transports.PLAIN);
    }

    private TcpServer server(final ByeHandler handler, final boolean reuse, final Transports transport)
    {
        return new TcpServer(reactors.start("server"), 0, new TcpConfig().bindAddress("127.0.0.1")
            .framing(() -> new LineFraming(64)).closeLingerMillis(30_000).reuseConnections(reuse)
            .transport(transport.server()), handler).open();
    }

    private static int sayBye(final TcpServer server, final ByeHandler handler) throws IOException
    {
        return sayBye(server, handler, Transports.PLAIN);
    }

    /** Connects, says bye, reads the answer; returns its own port once the server has heard of the close. */
    private static int sayBye(final TcpServer server, final ByeHandler handler, final Transports transport)
        throws IOException
    {
        final int before = handler.closed.get();
        try (Socket peer = transport.connect("127.0.0.1", server.port()))
        {
            peer.setSoTimeout(30_000);
            peer.getOutputStream().write("bye\n".getBytes(StandardCharsets.US_ASCII));
            final byte[] answer = peer.getInputStream().readNBytes(4);
            assertThat(new String(answer, StandardCharsets.US_ASCII)).isEqualTo("bye\n");
            Await.until("the server heard of the close", () -> handler.closed.get() > before);
            return peer.getLocalPort();
        }
    }

    @Test
    void aClosedConnectionServesTheNextAcceptWithAnIdAndAnAddressOfItsOwn() throws Exception
    {
        final ByeHandler handler = new ByeHandler();
        final TcpServer server = server(handler, true);
        final int[] ports = new int[4];
        for (int i = 0; i < ports.length; i++)
        {
            ports[i] = sayBye(server, handler);
        }
        assertThat(handler.uses).hasSize(ports.length);
        for (int i = 0; i < ports.length; i++)
        {
            final Use use = handler.uses.get(i);
            assertThat(use.connection()).as("one object, reused").isSameAs(handler.uses.get(0).connection());
            assertThat(use.openedBy().getPort()).as("the peer's address at the open of use %d", i).isEqualTo(ports[i]);
            assertThat(use.closedBy().getPort()).as("the peer's address in closed() of use %d", i).isEqualTo(ports[i]);
            assertThat(use.attachmentAtOpen()).as("nothing of the last use attached").isNull();
        }
        assertThat(handler.uses.stream().mapToLong(Use::id).distinct().count()).as("an id per use")
            .isEqualTo(ports.length);
        server.close();
    }

    @Test
    void withoutReuseEveryConnectionIsANewObject() throws Exception
    {
        threeConnectionsAreThreeObjects(false, Transports.PLAIN);
    }

    /**
     * On the native transports a connection's channel goes back at the close, to serve the next accept, while a
     * connection not reused lives on: the peer's address, never asked for while it was open, is still its own.
     */
    @Test
    void withoutReuseAConnectionNeverAskedKnowsItsPeerAfterItsChannelServedTheNextOne() throws Exception
    {
        final List<Connection> closed = new CopyOnWriteArrayList<>();
        final Reactor reactor = reactors.start("server");
        final TcpServer server = new TcpServer(reactor, 0, new TcpConfig().bindAddress("127.0.0.1")
            .framing(() -> new LineFraming(64)), new Handler()
            {
                @Override
                public void message(final Connection connection, final ByteBuffer message)
                {
                    connection.close();
                }

                @Override
                public void closed(final Connection connection, final CloseReason reason)
                {
                    closed.add(connection);
                }
            }).open();
        final int[] ports = new int[3];
        for (int i = 0; i < ports.length; i++)
        {
            try (Socket peer = new Socket("127.0.0.1", server.port()))
            {
                ports[i] = peer.getLocalPort();
                peer.getOutputStream().write("x\n".getBytes(StandardCharsets.US_ASCII));
                final int count = i + 1;
                Await.until("the server closed connection " + count, () -> closed.size() == count);
            }
        }
        for (int i = 0; i < ports.length; i++)
        {
            final Connection connection = closed.get(i);
            assertThat(OnReactor.get(reactor, () -> connection.remoteAddress().getPort()))
                .as("the address of connection %d, asked after the later ones", i).isEqualTo(ports[i]);
        }
        server.close();
    }

    /**
     * A peer that resets its connection before its address was ever asked for is still named at the close: a
     * transport whose accept gives no address (io_uring's) reads it while the connection is surely there.
     */
    @Test
    void aPeerThatResetsIsStillNamedAtItsClose() throws Exception
    {
        final List<InetSocketAddress> named = new CopyOnWriteArrayList<>();
        final AtomicInteger opened = new AtomicInteger();
        final Reactor reactor = reactors.start("server");
        final TcpServer server = new TcpServer(reactor, 0, new TcpConfig().bindAddress("127.0.0.1"), new Handler()
        {
            @Override
            public void opened(final Connection connection)
            {
                opened.incrementAndGet();
            }

            @Override
            public void closed(final Connection connection, final CloseReason reason)
            {
                named.add(connection.remoteAddress());
            }
        }).open();
        final int[] ports = new int[3];
        for (int i = 0; i < ports.length; i++)
        {
            final Socket peer = new Socket("127.0.0.1", server.port());
            ports[i] = peer.getLocalPort();
            final int count = i + 1;
            Await.until("connection " + count + " open on the server", () -> opened.get() == count);
            peer.setSoLinger(true, 0); // the close resets the connection
            peer.close();
            Await.until("the server closed connection " + count, () -> named.size() == count);
        }
        assertThat(named).extracting(address -> address == null ? -1 : address.getPort())
            .as("each peer's address, asked only once it had reset").containsExactly(ports[0], ports[1], ports[2]);
        server.close();
    }

    /** Its handshake's work on another thread may outlive the close, still holding the connection. */
    @Test
    void aTlsConnectionIsNeverReused() throws Exception
    {
        threeConnectionsAreThreeObjects(true, Transports.TLS);
    }

    private void threeConnectionsAreThreeObjects(final boolean reuse, final Transports transport) throws Exception
    {
        final ByeHandler handler = new ByeHandler();
        final TcpServer server = server(handler, reuse, transport);
        for (int i = 0; i < 3; i++)
        {
            sayBye(server, handler, transport);
        }
        assertThat(handler.uses).hasSize(3);
        assertThat(handler.uses.get(1).connection()).isNotSameAs(handler.uses.get(0).connection());
        assertThat(handler.uses.get(2).connection()).isNotSameAs(handler.uses.get(0).connection())
            .isNotSameAs(handler.uses.get(1).connection());
        server.close();
    }

    /**
     * Peers on several threads at once, each connection closed by the server or by its peer: objects and, on the
     * native transports, channels and keys are reused while other connections' events are under way, and each
     * peer hears its own answer only.
     */
    @Test
    void manyPeersComingAndGoingAtOnceHearOnlyTheirOwnAnswers() throws Exception
    {
        final ByeHandler handler = new ByeHandler();
        final TcpServer server = server(handler, true);
        final int threads = 4;
        final int perThread = 300;
        final List<Throwable> failures = new CopyOnWriteArrayList<>();
        final List<Thread> peers = new java.util.ArrayList<>();
        for (int t = 0; t < threads; t++)
        {
            final int thread = t;
            final Thread peer = new Thread(() ->
            {
                try
                {
                    for (int i = 0; i < perThread; i++)
                    {
                        oneExchange(server.port(), thread + "-" + i, i % 2 == 0);
                    }
                }
                catch (final Throwable failure)
                {
                    failures.add(failure);
                }
            }, "peer-" + t);
            peer.start();
            peers.add(peer);
        }
        for (final Thread peer : peers)
        {
            peer.join(Await.DEFAULT.toMillis());
        }
        assertThat(failures).isEmpty();
        Await.until("the server heard of every close", () -> handler.closed.get() == threads * perThread);
        assertThat(handler.uses.stream().map(use -> System.identityHashCode(use.connection())).distinct().count())
            .as("objects for %d connections, a few at a time", threads * perThread).isLessThan(100);
        server.close();
    }

    /** One connection: a line and its echo, then the server's close after "bye", or the peer's own. */
    private static void oneExchange(final int port, final String line, final boolean serverCloses)
        throws IOException
    {
        try (Socket peer = new Socket("127.0.0.1", port))
        {
            peer.setSoTimeout(30_000);
            final byte[] request = (line + "\n").getBytes(StandardCharsets.US_ASCII);
            peer.getOutputStream().write(request);
            final String echo = new String(peer.getInputStream().readNBytes(request.length), StandardCharsets.US_ASCII);
            if (!echo.equals(line + "\n"))
            {
                throw new AssertionError("sent " + line + ", heard " + echo);
            }
            if (serverCloses)
            {
                peer.getOutputStream().write("bye\n".getBytes(StandardCharsets.US_ASCII));
                final byte[] bye = peer.getInputStream().readNBytes(4);
                if (!new String(bye, StandardCharsets.US_ASCII).equals("bye\n") || peer.getInputStream().read() != -1)
                {
                    throw new AssertionError(line + ": no bye and end of stream");
                }
            }
        }
    }

    @Test
    void aConnectionStillDrainingItsPeersInputIsNotReusedUntilItsSocketCloses() throws Exception
    {
        final ByeHandler handler = new ByeHandler();
        final TcpServer server = server(handler, true);
        try (Socket draining = new Socket("127.0.0.1", server.port()))
        {
            draining.setSoTimeout(30_000);
            // Far more than the server reads before it closes: its close lingers, reading and dropping the rest
            // until this peer closes too (see LingeringCloseTest). This write ends only if it does.
            final byte[] request = new byte[64 << 20];
            System.arraycopy("bye\n".getBytes(StandardCharsets.US_ASCII), 0, request, 0, 4);
            draining.getOutputStream().write(request);
            Await.until("the server heard of the first close", () -> handler.closed.get() == 1);
            final Connection first = handler.uses.get(0).connection();

            sayBye(server, handler);
            assertThat(handler.uses.get(1).connection()).as("a new object while the first one drains")
                .isNotSameAs(first);
        }
        // Its peer gone, the first one's socket closes once the server has read and dropped what was still on the
        // way (megabytes, on a busy machine a while); then it serves an accept. Bounded in time: a round each
        // 10 ms at most.
        final long deadline = System.nanoTime() + Await.DEFAULT.toNanos();
        boolean reused = false;
        while (!reused && System.nanoTime() - deadline < 0)
        {
            sayBye(server, handler);
            reused = handler.uses.get(handler.uses.size() - 1).connection() == handler.uses.get(0).connection();
            if (!reused)
            {
                Thread.sleep(10);
            }
        }
        assertThat(reused).as("the first object serves again once its socket closed").isTrue();
        server.close();
    }
}
