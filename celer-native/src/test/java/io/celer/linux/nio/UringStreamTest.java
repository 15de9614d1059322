package io.celer.linux.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.Channel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.IllegalSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.celer.reactor.StreamListener;

/**
 * A listener on an io_uring selector accepts a connection as one object, the socket and its own selection key with
 * the ring's state for it: its bytes go through the ring, it reports readiness, closed for reuse it sends what it
 * staged, then is kept once its selector has closed the descriptor, and wakes in a new slot generation at the next
 * accept; closed for good, it leaves the selector.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class UringStreamTest
{
    private UringSelector selector;
    private ServerSocketChannel listener;

    @BeforeEach
    void open() throws IOException
    {
        assumeThat(UringSelectorProvider.INSTANCE.refusal()).as("io_uring here").isNull();
        selector = (UringSelector)UringSelectorProvider.INSTANCE.openSelector();
        listener = UringSelectorProvider.INSTANCE.openServerSocketChannel();
        listener.bind(new InetSocketAddress("127.0.0.1", 0));
        listener.configureBlocking(false);
        listener.register(selector, SelectionKey.OP_ACCEPT);
    }

    @AfterEach
    void close() throws IOException
    {
        if (listener != null)
        {
            listener.close();
        }
        if (selector != null)
        {
            selector.close();
        }
    }

    @Test
    void aStreamIsItsOwnKeyAndCarriesBytesThroughTheRing() throws Exception
    {
        try (Socket peer = peer())
        {
            final UringStream stream = acceptOne();
            final Object owner = new Object();
            final SelectionKey key = stream.register(selector, SelectionKey.OP_READ, owner);
            assertThat(key).isSameAs(stream);
            assertThat(key.channel()).as("no channel beside it").isNull();
            assertThat(selector.keys()).contains(stream);
            assertThat(stream.getRemoteAddress()).isEqualTo(peer.getLocalSocketAddress());
            stream.setOption(StandardSocketOptions.TCP_NODELAY, true);
            assertThat(stream.getOption(StandardSocketOptions.TCP_NODELAY)).isTrue();

            peer.getOutputStream().write("ping".getBytes(StandardCharsets.US_ASCII));
            final List<Object> ready = new ArrayList<>();
            selectUntil("the stream readable", () -> !ready.isEmpty(), k -> ready.add(k.attachment()));
            assertThat(ready).containsExactly(owner);
            assertThat(selector.buffersHeld()).as("the bytes wait in a provided buffer").isOne();
            final ByteBuffer in = ByteBuffer.allocateDirect(16);
            assertThat(stream.read(in)).isEqualTo(4);
            assertThat(selector.buffersHeld()).as("the buffer goes back once read").isZero();
            in.flip();
            assertThat(stream.write(in)).as("staged").isEqualTo(4);
            selectUntil("the send done", () -> !stream.hasUnsent(), null);
            assertThat(readFully(peer, 4)).isEqualTo("ping");

            stream.shutdownOutput();
            selector.selectNow();
            assertThat(peer.getInputStream().read()).as("the end of the stream").isEqualTo(-1);
        }
    }

    @Test
    void aStreamClosedForReuseSendsWhatItStagedAndIsKeptOnceItsDescriptorIsClosed() throws Exception
    {
        final UringStream first;
        final int firstGeneration;
        try (Socket peer = peer())
        {
            first = acceptOne();
            first.register(selector, SelectionKey.OP_READ, "first");
            firstGeneration = first.generation;
            first.write(ByteBuffer.wrap("bye".getBytes(StandardCharsets.US_ASCII)));
            first.closeSocket();
            assertThat(first.isOpen()).isFalse();
            assertThat(first.getRemoteAddress()).as("readable until recycled").isEqualTo(peer.getLocalSocketAddress());
            assertThat(first.attachment()).as("attached to nothing once asleep").isNull();
            first.recycle();
            assertThat(selector.spares()).as("not kept while the ring may hold its descriptor").isZero();
            selectUntil("the descriptor closed", () -> selector.spares() == 1, null);
            assertThat(readFully(peer, 3)).as("the staged bytes went first").isEqualTo("bye");
            assertThat(peer.getInputStream().read()).as("then the end of the stream").isEqualTo(-1);
            assertThat(selector.keys()).as("out of the selector while kept").containsExactly(
                listener.keyFor(selector));
        }
        try (Socket peer = peer())
        {
            final UringStream second = acceptOne();
            assertThat(second).as("the next accept's stream").isSameAs(first);
            assertThat(selector.spares()).isZero();
            assertThat(second.isOpen()).isTrue();
            assertThat(second.getRemoteAddress()).isEqualTo(peer.getLocalSocketAddress());
            second.register(selector, SelectionKey.OP_READ, "second");
            assertThat(second.generation).as("a new generation of its slot").isNotEqualTo(firstGeneration);
            assertThat(second.isValid()).isTrue();
            assertThat(second.attachment()).isEqualTo("second");
            peer.getOutputStream().write("again".getBytes(StandardCharsets.US_ASCII));
            selectUntil("the kept stream readable", () -> second.receivedCount() > 0, null);
            final ByteBuffer in = ByteBuffer.allocate(16);
            assertThat(second.read(in)).isEqualTo(5);
            second.close();
        }
    }

    @Test
    void aStreamClosedForGoodLeavesTheSelectorAndIsNotKept() throws Exception
    {
        try (Socket peer = peer())
        {
            final UringStream stream = acceptOne();
            stream.register(selector, SelectionKey.OP_READ, "owner");
            selector.selectNow(); // its receive armed: the ring holds it
            stream.close();
            assertThat(stream.isOpen()).isFalse();
            assertThat(stream.isValid()).as("cancelled").isFalse();
            selectUntil("its slot free", () -> stream.released, null);
            assertThat(peer.getInputStream().read()).as("the peer reads the end of the stream").isEqualTo(-1);
            assertThat(selector.keys()).containsExactly(listener.keyFor(selector));
            stream.recycle();
            assertThat(selector.spares()).as("a stream closed for good is not kept").isZero();
            assertThatThrownBy(() -> stream.read(ByteBuffer.allocate(4))).isInstanceOf(ClosedChannelException.class);
            assertThatThrownBy(() -> stream.register(selector, SelectionKey.OP_READ, null))
                .isInstanceOf(ClosedChannelException.class);
        }
    }

    @Test
    void aStreamRegistersOnlyWithAnIoUringSelector() throws Exception
    {
        try (Selector jdk = Selector.open();
            Selector epoll = EpollSelectorProvider.INSTANCE.openSelector();
            Socket peer = peer())
        {
            final UringStream stream = acceptOne();
            assertThatThrownBy(() -> stream.register(jdk, SelectionKey.OP_READ, null))
                .isInstanceOf(IllegalSelectorException.class);
            assertThatThrownBy(() -> stream.register(epoll, SelectionKey.OP_READ, null))
                .isInstanceOf(IllegalSelectorException.class);
            assertThatThrownBy(() -> stream.register(selector, SelectionKey.OP_ACCEPT, null))
                .isInstanceOf(IllegalArgumentException.class);
            stream.register(selector, SelectionKey.OP_READ, null);
            assertThatThrownBy(() -> stream.register(selector, SelectionKey.OP_READ, null))
                .as("registered already").isInstanceOf(IllegalStateException.class);
            stream.close();
        }
    }

    private Socket peer() throws IOException
    {
        final Socket socket = new Socket("127.0.0.1", ((InetSocketAddress)listener.getLocalAddress()).getPort());
        socket.setSoTimeout(10_000);
        return socket;
    }

    /** Selects until the ring's accept has the connection waiting, then takes it as a stream. */
    private UringStream acceptOne() throws IOException
    {
        final Channel[] accepted = new Channel[1];
        selectUntil("a connection accepted", () ->
        {
            try
            {
                accepted[0] = ((StreamListener)listener).acceptStream();
            }
            catch (final IOException ex)
            {
                throw new AssertionError(ex);
            }
            return accepted[0] != null;
        }, null);
        return (UringStream)accepted[0];
    }

    /** Selects (a bounded number of times, each waiting at most 10 ms) until done. */
    private void selectUntil(final String what, final BooleanSupplier done,
        final java.util.function.Consumer<SelectionKey> action) throws IOException
    {
        for (int i = 0; i < 1_000; i++)
        {
            if (done.getAsBoolean())
            {
                return;
            }
            selector.select(action != null ? action : k -> { }, 10);
        }
        throw new AssertionError("not done: " + what);
    }

    /** The peer's next bytes, as many as asked or fewer at the end of the stream, as text. */
    private static String readFully(final Socket peer, final int length) throws IOException
    {
        return new String(peer.getInputStream().readNBytes(length), StandardCharsets.US_ASCII);
    }
}
