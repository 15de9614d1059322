package io.celer.linux.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

import org.junit.jupiter.api.Test;

import io.celer.reactor.StreamListener;

/**
 * A listener on an epoll selector accepts a connection as one object, the socket and its own selection key: it
 * carries bytes, reports readiness, is kept closed for the next accept of its selector under a new token, and
 * closed for good leaves the selector.
 */
class EpollStreamTest
{
    @Test
    void aStreamIsItsOwnKeyAndCarriesBytes() throws Exception
    {
        try (EpollSelector selector = (EpollSelector)EpollSelectorProvider.INSTANCE.openSelector();
            ServerSocketChannel listener = listen(selector);
            Socket peer = new Socket("127.0.0.1", port(listener)))
        {
            peer.setSoTimeout(10_000);
            final EpollStream stream = acceptOne(listener);
            final Object owner = new Object();
            final SelectionKey key = stream.register(selector, SelectionKey.OP_READ, owner);
            assertThat(key).isSameAs(stream);
            assertThat(key.channel()).as("no channel beside it").isNull();
            assertThat(stream.getRemoteAddress()).isEqualTo(peer.getLocalSocketAddress());
            stream.setOption(StandardSocketOptions.TCP_NODELAY, true);
            assertThat(stream.getOption(StandardSocketOptions.TCP_NODELAY)).isTrue();

            peer.getOutputStream().write("ping".getBytes(StandardCharsets.US_ASCII));
            final List<Object> ready = new ArrayList<>();
            for (int i = 0; i < 1_000 && ready.isEmpty(); i++)
            {
                selector.select(k -> ready.add(k.attachment()), 10);
            }
            assertThat(ready).containsExactly(owner);
            final ByteBuffer in = ByteBuffer.allocateDirect(16);
            assertThat(stream.read(in)).isEqualTo(4);
            in.flip();
            assertThat(stream.write(in)).isEqualTo(4);
            assertThat(readFully(peer, 4)).isEqualTo("ping");

            stream.shutdownOutput();
            assertThat(peer.getInputStream().read()).as("the end of the stream").isEqualTo(-1);
        }
    }

    @Test
    void aClosedStreamIsKeptForTheNextAcceptUnderANewToken() throws Exception
    {
        try (EpollSelector selector = (EpollSelector)EpollSelectorProvider.INSTANCE.openSelector();
            ServerSocketChannel listener = listen(selector))
        {
            final EpollStream first;
            final long firstToken;
            try (Socket peer = new Socket("127.0.0.1", port(listener)))
            {
                first = acceptOne(listener);
                first.register(selector, SelectionKey.OP_READ, "first");
                firstToken = first.token;
                first.closeSocket();
                assertThat(first.isOpen()).isFalse();
                assertThat(first.getRemoteAddress()).as("readable until recycled")
                    .isEqualTo(peer.getLocalSocketAddress());
                assertThat(first.attachment()).as("attached to nothing once asleep").isNull();
                first.recycle();
                assertThat(selector.spares()).isOne();
                assertThat(selector.keys()).as("out of the selector while kept").containsExactly(listenerKey(
                    selector, listener));
            }
            try (Socket peer = new Socket("127.0.0.1", port(listener)))
            {
                final EpollStream second = acceptOne(listener);
                assertThat(second).as("the next accept's stream").isSameAs(first);
                assertThat(selector.spares()).isZero();
                assertThat(second.isOpen()).isTrue();
                assertThat(second.getRemoteAddress()).isEqualTo(peer.getLocalSocketAddress());
                second.register(selector, SelectionKey.OP_READ, "second");
                assertThat(second.token).as("a new generation").isNotEqualTo(firstToken);
                assertThat(second.isValid()).isTrue();
                assertThat(second.attachment()).isEqualTo("second");
            }
        }
    }

    @Test
    void aStreamClosedForGoodLeavesTheSelectorAndIsNotKept() throws Exception
    {
        try (EpollSelector selector = (EpollSelector)EpollSelectorProvider.INSTANCE.openSelector();
            ServerSocketChannel listener = listen(selector);
            Socket peer = new Socket("127.0.0.1", port(listener)))
        {
            final EpollStream stream = acceptOne(listener);
            stream.register(selector, SelectionKey.OP_READ, "owner");
            stream.close();
            assertThat(stream.isOpen()).isFalse();
            assertThat(stream.isValid()).as("cancelled").isFalse();
            assertThat(peer.getInputStream().read()).as("the peer reads the end of the stream").isEqualTo(-1);
            selector.selectNow();
            assertThat(selector.keys()).containsExactly(listenerKey(selector, listener));
            stream.recycle();
            assertThat(selector.spares()).as("a stream closed for good is not kept").isZero();
            assertThatThrownBy(() -> stream.read(ByteBuffer.allocate(4))).isInstanceOf(ClosedChannelException.class);
            assertThatThrownBy(() -> stream.register(selector, SelectionKey.OP_READ, null))
                .isInstanceOf(ClosedChannelException.class);
        }
    }

    @Test
    void aStreamRegistersOnlyWithAnEpollSelector() throws Exception
    {
        try (EpollSelector selector = (EpollSelector)EpollSelectorProvider.INSTANCE.openSelector();
            Selector jdk = Selector.open();
            ServerSocketChannel listener = listen(selector);
            Socket peer = new Socket("127.0.0.1", port(listener)))
        {
            final EpollStream stream = acceptOne(listener);
            assertThatThrownBy(() -> stream.register(jdk, SelectionKey.OP_READ, null))
                .isInstanceOf(IllegalSelectorException.class);
            assertThatThrownBy(() -> stream.register(selector, SelectionKey.OP_ACCEPT, null))
                .isInstanceOf(IllegalArgumentException.class);
            stream.register(selector, SelectionKey.OP_READ, null);
            assertThatThrownBy(() -> stream.register(selector, SelectionKey.OP_READ, null))
                .as("registered already").isInstanceOf(IllegalStateException.class);
            stream.close();
        }
    }

    private static ServerSocketChannel listen(final EpollSelector selector) throws IOException
    {
        final ServerSocketChannel listener = EpollSelectorProvider.INSTANCE.openServerSocketChannel();
        listener.bind(new InetSocketAddress("127.0.0.1", 0));
        listener.configureBlocking(false);
        listener.register(selector, SelectionKey.OP_ACCEPT);
        return listener;
    }

    private static SelectionKey listenerKey(final Selector selector, final ServerSocketChannel listener)
    {
        return listener.keyFor(selector);
    }

    private static int port(final ServerSocketChannel listener) throws IOException
    {
        return ((InetSocketAddress)listener.getLocalAddress()).getPort();
    }

    /** Accepts the one connection waiting, polling: bounded, as a connect on loopback is queued at once. */
    private static EpollStream acceptOne(final ServerSocketChannel listener) throws IOException
    {
        for (int i = 0; i < 1_000_000; i++)
        {
            final Channel accepted = ((StreamListener)listener).acceptStream();
            if (accepted != null)
            {
                return (EpollStream)accepted;
            }
            Thread.onSpinWait();
        }
        throw new AssertionError("no connection to accept");
    }

    /** The peer's next bytes, as many as asked or fewer at the end of the stream, as text. */
    private static String readFully(final Socket peer, final int length) throws IOException
    {
        return new String(peer.getInputStream().readNBytes(length), StandardCharsets.US_ASCII);
    }
}
