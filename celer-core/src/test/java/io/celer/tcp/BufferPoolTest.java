package io.celer.tcp;

import static io.celer.test.Sockets.lineReader;
import static io.celer.test.Sockets.sendLine;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.celer.framing.LineFraming;
import io.celer.reactor.Reactor;
import io.celer.test.Await;
import io.celer.test.OnReactor;
import io.celer.test.Reactors;
import io.celer.test.RecordingHandler;
import io.celer.test.Transports;

/**
 * A server lends its connections buffers only while they use them: an idle connection holds none, a handle kept
 * after the close cannot write into the buffers lent since, each close gives back once, the pools keep what the
 * busiest moment needed and let the rest go once it is over, and a busy-polled connection keeps its pair.
 */
class BufferPoolTest
{
    private static final String STALE = "stale write";

    @RegisterExtension
    final Reactors reactors = new Reactors();

    /**
     * Echoes lines and closes on "bye"; keeps the first connection's handle and, from every later connection's
     * messages, tries to write through it before echoing.
     */
    private static final class StaleWriter extends RecordingHandler
    {
        StaleWriter()
        {
            super(false);
        }

        volatile Connection first;
        final List<Boolean> staleResults = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Override
        public void message(final Connection connection, final ByteBuffer message)
        {
            final byte[] bytes = new byte[message.remaining()];
            message.get(bytes);
            if (first == null)
            {
                first = connection;
            }
            else if (first != connection)
            {
                staleResults.add(first.write(STALE));
                staleResults.add(first.send(STALE.getBytes(StandardCharsets.US_ASCII)));
                staleResults.add(first.write(ByteBuffer.wrap(STALE.getBytes(StandardCharsets.US_ASCII))));
            }
            connection.write(bytes);
            if ("bye".equals(new String(bytes, StandardCharsets.US_ASCII)))
            {
                connection.close();
                connection.close(); // a second close gives nothing back twice
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transports.class)
    void aHandleKeptAfterCloseCannotWriteIntoTheNextConnectionsBuffers(final Transports transport) throws Exception
    {
        final Reactor reactor = reactors.start("server");
        final StaleWriter handler = new StaleWriter();
        final TcpServer server = new TcpServer(reactor, 0, new TcpConfig().bindAddress("127.0.0.1")
            .framing(() -> new LineFraming(64)).transport(transport.server()), handler).open();

        try (Socket a = transport.connect("127.0.0.1", server.port()))
        {
            final BufferedReader in = lineReader(a);
            sendLine(a, "hello");
            assertThat(in.readLine()).isEqualTo("hello");
            sendLine(a, "bye");
            assertThat(in.readLine()).isEqualTo("bye");
            assertThat(in.readLine()).isNull();
        }
        Await.until("the first connection closed", () -> handler.events.contains("closed:LOCAL_CLOSE"));
        assertThat(pools(reactor, server)).isEqualTo(new Pools(1, 1, 1, 1));

        try (Socket b = transport.connect("127.0.0.1", server.port()))
        {
            final BufferedReader in = lineReader(b);
            for (final String line : List.of("one", "two", "three"))
            {
                sendLine(b, line);
                assertThat(in.readLine()).isEqualTo(line);
                // From outside any callback too, while the second connection holds the recycled buffers.
                assertThat(OnReactor.get(reactor, () -> handler.first.write(STALE))).isFalse();
                assertThat(OnReactor.get(reactor, () -> handler.first.writeBufferRemaining())).isZero();
            }
            assertThat(pools(reactor, server)).as("one of each, made once, lent per read and per write to both " +
                "connections, and back in the pool in between").isEqualTo(new Pools(1, 1, 1, 1));
            assertThat(handler.staleResults).hasSize(9).containsOnly(false);
            assertThat(handler.first.isOpen()).isFalse();
            assertThat(handler.errors).isEmpty();
        }
        Await.until("the second connection closed", () -> handler.events.stream()
            .filter(e -> e.startsWith("closed:")).count() == 2);
        assertThat(pools(reactor, server)).isEqualTo(new Pools(1, 1, 1, 1));
    }

    @Test
    void thePoolsKeepWhatTheBusiestMomentNeededAndLetTheRestGoOnceItIsOver() throws Exception
    {
        final Reactor reactor = reactors.start("server");
        final RecordingHandler handler = new RecordingHandler(true);
        final TcpServer server = pooledLineServer(reactor, handler, 2);
        final List<Socket> sockets = new ArrayList<>();
        try
        {
            for (int i = 0; i < 5; i++)
            {
                final Socket socket = new Socket("127.0.0.1", server.port());
                socket.setSoTimeout(30_000);
                sockets.add(socket);
                socket.getOutputStream().write(("line " + i).getBytes(StandardCharsets.US_ASCII));
            }
            Await.until("five parts of lines held", () -> OnReactor.get(reactor, () -> server.readBuffers().lent())
                == 5);
            assertThat(pools(reactor, server)).as("a read buffer each while it holds part of a line")
                .isEqualTo(new Pools(5, 0, 0, 0));
            for (int i = 0; i < 5; i++)
            {
                sendLine(sockets.get(i), "");
                assertThat(lineReader(sockets.get(i)).readLine()).isEqualTo("line " + i);
            }
            final Pools done = pools(reactor, server);
            assertThat(done.readKept()).as("every read buffer back").isEqualTo(5);
            assertThat(done.writeMade()).as("write buffers, lent per echo").isBetween(1L, 5L);
            reactor.call(server::trimBuffers);
            assertThat(pools(reactor, server).readKept()).as("the peak was in this interval").isEqualTo(5);
            reactor.call(server::trimBuffers);
            assertThat(pools(reactor, server).readKept()).as("a quiet interval: down to the pool size").isEqualTo(2);
        }
        finally
        {
            for (final Socket socket : sockets)
            {
                socket.close();
            }
        }
        server.close();
        Await.until("the server closed", () -> OnReactor.get(reactor, () -> server.readBuffers().kept()) == 0);
        assertThat(pools(reactor, server).writeKept()).isZero();
    }

    @Test
    void connectionsAnsweringInOneCycleTakeTheirWriteBufferInTurn() throws Exception
    {
        final Reactor reactor = reactors.start("server");
        // Answers with write, which leaves the flush to the connection, as the HTTP server does.
        final Handler echoByWrite = new Handler()
        {
            @Override
            public void message(final Connection connection, final ByteBuffer message)
            {
                connection.write(message);
                connection.write("\n");
            }
        };
        final TcpServer server = new TcpServer(reactor, 0, new TcpConfig().bindAddress("127.0.0.1")
            .framing(() -> new LineFraming(64)).bufferPoolSize(2), echoByWrite).open();
        final List<Socket> sockets = new ArrayList<>();
        try
        {
            for (int i = 0; i < 50; i++)
            {
                final Socket socket = new Socket("127.0.0.1", server.port());
                socket.setSoTimeout(30_000);
                sockets.add(socket);
            }
            Await.until("fifty connections", () -> OnReactor.get(reactor, server::connectionCount) == 50);
            // The reactor waits while every client sends a line, so that one cycle finds all fifty ready.
            final CountDownLatch hold = new CountDownLatch(1);
            reactor.callAsync(() ->
            {
                try
                {
                    hold.await();
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                }
            });
            for (int i = 0; i < 50; i++)
            {
                sendLine(sockets.get(i), "line " + i);
            }
            Thread.sleep(200);
            hold.countDown();
            for (int i = 0; i < 50; i++)
            {
                assertThat(lineReader(sockets.get(i)).readLine()).isEqualTo("line " + i);
            }
            // Each answer leaves as its read ends and gives its buffer back for the next connection's.
            assertThat(pools(reactor, server).writeMade()).as("write buffers made for fifty answers in a cycle")
                .isEqualTo(1);
        }
        finally
        {
            for (final Socket socket : sockets)
            {
                socket.close();
            }
        }
        server.close();
    }

    @Test
    void aBusyPolledConnectionKeepsItsBuffersWhileOpen() throws Exception
    {
        final Reactor reactor = reactors.start("server");
        final RecordingHandler handler = new RecordingHandler(true);
        final TcpServer server = new TcpServer(reactor, 0, new TcpConfig().bindAddress("127.0.0.1")
            .framing(() -> new LineFraming(64)).busyPoll(true), handler).open();
        try (Socket socket = new Socket("127.0.0.1", server.port()))
        {
            socket.setSoTimeout(30_000);
            sendLine(socket, "hot");
            assertThat(lineReader(socket).readLine()).isEqualTo("hot");
            assertThat(OnReactor.get(reactor, () -> server.readBuffers().lent())).isEqualTo(1);
            assertThat(OnReactor.get(reactor, () -> server.writeBuffers().lent())).isEqualTo(1);
        }
        Await.until("given back at the close", () -> OnReactor.get(reactor, () -> server.readBuffers().lent()) == 0);
    }

    /**
     * What a server's two buffer pools hold.
     *
     * @param readMade  read buffers made so far.
     * @param readKept  read buffers kept for the next connection.
     * @param writeMade write buffers made so far.
     * @param writeKept write buffers kept.
     */
    private record Pools(long readMade, int readKept, long writeMade, int writeKept)
    {
    }

    /** The pools' counts, read on the reactor thread that owns them. */
    private static Pools pools(final Reactor reactor, final TcpServer server)
    {
        return OnReactor.get(reactor, () -> new Pools(server.readBuffers().made(), server.readBuffers().kept(),
            server.writeBuffers().made(), server.writeBuffers().kept()));
    }

    /** A line echo server keeping at most {@code poolSize} buffers of each kind for later connections. */
    private static TcpServer pooledLineServer(final Reactor reactor, final RecordingHandler handler,
        final int poolSize)
    {
        return new TcpServer(reactor, 0, new TcpConfig().bindAddress("127.0.0.1")
            .framing(() -> new LineFraming(64)).bufferPoolSize(poolSize), handler).open();
    }
}
