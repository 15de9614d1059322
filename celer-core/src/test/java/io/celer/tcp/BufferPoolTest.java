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

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

import io.celer.framing.LineFraming;
import io.celer.reactor.Reactor;
import io.celer.test.Await;
import io.celer.test.OnReactor;
import io.celer.test.Reactors;
import io.celer.test.RecordingHandler;
import io.celer.test.Transports;

/**
 * A server lends a closed connection's buffers to the next one: a handle kept after the close cannot write into
 * them, each close gives them back once, and the pool keeps no more than its bound.
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
            assertThat(pools(reactor, server)).as("the first connection's buffers lent again").isEqualTo(
                new Pools(1, 0, 1, 0));
            assertThat(handler.staleResults).hasSize(9).containsOnly(false);
            assertThat(handler.first.isOpen()).isFalse();
            assertThat(handler.errors).isEmpty();
        }
        Await.until("the second connection closed", () -> handler.events.stream()
            .filter(e -> e.startsWith("closed:")).count() == 2);
        assertThat(pools(reactor, server)).isEqualTo(new Pools(1, 1, 1, 1));
    }

    @ParameterizedTest(name = "a pool of {0}")
    @CsvSource({
        "2, 2, 8",   // the second burst: two lent again, three made
        "0, 0, 10",  // every connection its own buffers
    })
    void thePoolKeepsNoMoreThanItsBoundAndNothingOnceTheServerCloses(final int poolSize, final int kept,
        final long madeAfterTwoBursts) throws Exception
    {
        final Reactor reactor = reactors.start("server");
        final RecordingHandler handler = new RecordingHandler(true);
        final TcpServer server = pooledLineServer(reactor, handler, poolSize);

        burst(server, handler, 5, 5);
        assertThat(pools(reactor, server)).isEqualTo(new Pools(5, kept, 5, kept));

        burst(server, handler, 5, 10);
        assertThat(pools(reactor, server)).as("those kept lent again, the others made").isEqualTo(
            new Pools(madeAfterTwoBursts, kept, madeAfterTwoBursts, kept));

        server.close();
        Await.until("the server closed", () -> !server.isOpen());
        assertThat(pools(reactor, server)).isEqualTo(new Pools(madeAfterTwoBursts, 0, madeAfterTwoBursts, 0));
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

    /**
     * Opens {@code count} connections at once, echoes a line on each, closes them all and waits until the server
     * saw {@code closedInAll} closes.
     */
    private static void burst(final TcpServer server, final RecordingHandler handler, final int count,
        final int closedInAll) throws Exception
    {
        final List<Socket> sockets = new ArrayList<>();
        try
        {
            for (int i = 0; i < count; i++)
            {
                final Socket socket = new Socket("127.0.0.1", server.port());
                socket.setSoTimeout(30_000);
                sockets.add(socket);
                sendLine(socket, "line " + i);
                assertThat(lineReader(socket).readLine()).isEqualTo("line " + i);
            }
        }
        finally
        {
            for (final Socket socket : sockets)
            {
                socket.close();
            }
        }
        Await.until(() -> closedInAll + " closes among " + handler.events, () -> handler.events.stream()
            .filter(e -> e.startsWith("closed:")).count() == closedInAll, Await.DEFAULT);
    }
}
