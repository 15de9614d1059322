package io.celer.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.reactor.Reactor;
import io.celer.test.ConnectionPerRequest;
import io.celer.test.OnReactor;
import io.celer.test.Reactors;
import io.celer.test.SteadyAllocation;

/**
 * After warm-up, a connection that is accepted, answers one request and is closed by the server (the paper's
 * {@code ab} test without keep-alive) allocates on the server's reactor thread only what the JDK allocates per
 * socket and a fixed set of small objects of Celer's; its direct buffers come back from the server's pool.
 */
class AcceptAllocationTest
{
    private static final int CYCLES = 200;
    private static final int BURST = 64;
    private static final byte[] REQUEST = "ping\n".getBytes(StandardCharsets.US_ASCII);

    /**
     * What one cycle may allocate on the heap of the reactor thread; about 1.2 KiB measured on JDK 17. Most is
     * the JDK's, per socket and out of a library's reach: {@code ServerSocketChannel.accept()} makes a
     * {@code SocketChannelImpl} (its two {@code ReentrantLock}s, state lock, {@code FileDescriptor}, local and
     * remote {@code InetSocketAddress} and {@code Inet4Address}), {@code setOption} boxes the 4 MiB socket
     * buffer sizes, and registration makes a {@code SelectionKeyImpl}, its channel's key array and the
     * selector's map entry. Celer's part is the {@link TcpConnection} and its parts (reader, writer, timers,
     * closer, handshake, framing), a few hundred bytes: a new object per connection, because the application
     * may keep its {@link Connection} handle after the close, and a reused one would write to a stranger
     * (unless it asked for reuse, below).
     * The bound is loose so a JDK update does not break it; the buffers are checked exactly, below.
     */
    private static final long MAX_BYTES_PER_CONNECTION = 2 * 1024;
    /**
     * On a native transport, which reuses its socket objects and makes the peer's address only when asked, what
     * is left is Celer's part and the address made at the close: about 310 bytes.
     */
    private static final long MAX_NATIVE_BYTES_PER_CONNECTION = 512;
    private static final boolean NATIVE = !"nio".equals(System.getProperty("celer.transport", "nio"));
    /** Celer's own objects per connection, which a reused connection does not make again: well under this. */
    private static final long REUSED_PART = 256;

    @RegisterExtension
    final Reactors reactors = new Reactors();

    /**
     * Answers each request and closes, as an HTTP/1.0 server does.
     */
    private static final class AnswerAndClose implements Handler
    {
        final AtomicLong closed = new AtomicLong();

        @Override
        public void message(final Connection connection, final ByteBuffer message)
        {
            message.position(message.limit());
            connection.write("pong\n");
            connection.close();
        }

        @Override
        public void closed(final Connection connection, final CloseReason reason)
        {
            closed.incrementAndGet();
        }
    }

    @Test
    @Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES)
    void acceptRequestCloseAllocatesOnlyTheJdksPartPerConnection() throws Exception
    {
        final Reactor reactor = reactors.start("server");
        final AnswerAndClose handler = new AnswerAndClose();
        final TcpServer server = new TcpServer(reactor, 0, new TcpConfig().bindAddress("127.0.0.1"), handler).open();
        final InetSocketAddress address = new InetSocketAddress("127.0.0.1", server.port());

        final List<Long> windows = SteadyAllocation.perWindow(reactor.thread(), () -> cycles(address, handler));
        final long directBefore = directBuffers();
        final long madeBefore = buffersMade(reactor, server);
        cycles(address, handler);
        final long made = buffersMade(reactor, server) - madeBefore;

        assertThat(made).as("direct buffers made by the server over %d connections", CYCLES).isZero();
        // The JVM's own count agrees: nobody else on the reactor thread allocates a direct buffer per connection.
        assertThat(directBuffers()).as("direct buffers in the JVM").isLessThanOrEqualTo(directBefore);
        final long best = windows.stream().mapToLong(Long::longValue).min().orElseThrow();
        System.out.printf("accept+request+close: bytes per connection on the reactor thread %s%n",
            windows.stream().map(w -> Long.toString(w / CYCLES)).toList());
        assertThat(best / CYCLES).as("bytes per connection on the reactor thread, windows %s", windows)
            .isLessThanOrEqualTo(NATIVE ? MAX_NATIVE_BYTES_PER_CONNECTION : MAX_BYTES_PER_CONNECTION);
        server.close();
    }

    /**
     * With {@link TcpConfig#reuseConnections}, Celer's part goes: a closed connection's object serves the next
     * accept, and on the native transports so do its channel, key and socket object, and the peer's address is
     * made only when asked. There an accept allocates nothing at all; on the JDK's transport what is left is the
     * JDK's part, per socket.
     */
    @Test
    @Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES)
    void withConnectionsReusedAnAcceptAllocatesOnlyTheTransportsPart() throws Exception
    {
        final Reactor reactor = reactors.start("server");
        final AnswerAndClose handler = new AnswerAndClose();
        final TcpServer server = new TcpServer(reactor, 0,
            new TcpConfig().bindAddress("127.0.0.1").reuseConnections(true), handler).open();
        final InetSocketAddress address = new InetSocketAddress("127.0.0.1", server.port());

        burst(address, handler);
        final List<Long> windows =
            new ArrayList<>(SteadyAllocation.perWindow(reactor.thread(), () -> cycles(address, handler)));
        if (windows.get(windows.size() - 1) != 0)
        {
            // Still settling on a loaded machine (each window less than the one before): as many windows again.
            // Garbage made per connection would show in every one of them.
            windows.addAll(SteadyAllocation.perWindow(reactor.thread(), () -> cycles(address, handler)));
        }
        final long best = windows.stream().mapToLong(Long::longValue).min().orElseThrow();
        final String transport = System.getProperty("celer.transport", "nio");
        System.out.printf("accept+request+close, connections reused, on %s: bytes per connection %s%n", transport,
            windows.stream().map(w -> Long.toString(w / CYCLES)).toList());
        if ("epoll".equals(transport) || "uring".equals(transport))
        {
            assertThat(best).as("bytes over %d connections on the reactor thread, windows %s", CYCLES, windows)
                .isZero();
        }
        else
        {
            assertThat(best / CYCLES).as("bytes per connection on the reactor thread, windows %s", windows)
                .isLessThanOrEqualTo(MAX_BYTES_PER_CONNECTION - REUSED_PART);
        }
        server.close();
    }

    private static long buffersMade(final Reactor reactor, final TcpServer server)
    {
        return OnReactor.get(reactor, () -> server.readBuffers().made() + server.writeBuffers().made());
    }

    private static long directBuffers()
    {
        return java.lang.management.ManagementFactory.getPlatformMXBeans(
                java.lang.management.BufferPoolMXBean.class).stream()
            .filter(pool -> "direct".equals(pool.getName())).findFirst().orElseThrow().getCount();
    }

    /**
     * Connects, asks, reads the answer to its end and closes, {@link #CYCLES} times; returns once the server
     * has closed every one.
     */
    /**
     * Has {@value #BURST} connections open at once, then closes them: the warm-up of what reuse keeps (closed
     * connection objects, sockets, the tables that hold live ones) reaches more connections at once than one
     * after another ever overlap, on a machine so loaded that closes lag behind the next accepts.
     */
    private static void burst(final InetSocketAddress address, final AnswerAndClose handler) throws IOException
    {
        final long target = handler.closed.get() + BURST;
        final List<Socket> sockets = new ArrayList<>();
        try
        {
            for (int i = 0; i < BURST; i++)
            {
                final Socket socket = new Socket(address.getAddress(), address.getPort());
                socket.setSoTimeout(30_000);
                sockets.add(socket);
            }
            for (final Socket socket : sockets)
            {
                socket.getOutputStream().write(REQUEST);
            }
            for (final Socket socket : sockets)
            {
                assertThat(new String(socket.getInputStream().readNBytes(5), StandardCharsets.US_ASCII))
                    .isEqualTo("pong\n");
            }
        }
        finally
        {
            for (final Socket socket : sockets)
            {
                socket.close();
            }
        }
        io.celer.test.Await.until("server closed the burst's connections", () -> handler.closed.get() >= target);
    }

    private static void cycles(final InetSocketAddress address, final AnswerAndClose handler) throws IOException
    {
        final long target = handler.closed.get() + CYCLES;
        final byte[] answer = new byte[64];
        for (int i = 0; i < CYCLES; i++)
        {
            assertThat(ConnectionPerRequest.exchange(address, REQUEST, answer)).isEqualTo("pong\n");
        }
        io.celer.test.Await.until("server closed every connection", () -> handler.closed.get() >= target);
    }
}
