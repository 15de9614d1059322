package io.celer.reactor;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.channels.ByteChannel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NetworkChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;

/**
 * An accepted TCP connection that is its own selection key: one object for the socket and its registration,
 * where a {@code SocketChannel} needs a channel, its key and their locks. What the native transports' listeners
 * accept ({@link StreamListener}), so that an idle connection costs as few bytes as its descriptor needs.
 * Always non-blocking; reused as its transport decides, as any {@link ReusableChannel}; for its reactor's
 * thread.
 */
public interface StreamSocket extends ByteChannel, NetworkChannel, ReusableChannel
{
    /**
     * Registers the socket with a selector of its transport.
     *
     * @param selector   the reactor's selector.
     * @param ops        the interest set.
     * @param attachment what handles its events.
     * @return this socket, as its key.
     * @throws ClosedChannelException if the socket is closed.
     * @throws java.nio.channels.IllegalSelectorException if the selector is another transport's.
     */
    SelectionKey register(Selector selector, int ops, Object attachment) throws ClosedChannelException;

    /**
     * The peer's address, as {@code SocketChannel#getRemoteAddress}; readable after {@link #closeSocket} until
     * {@link #recycle}.
     *
     * @return the address.
     * @throws IOException if the socket is closed for good.
     */
    SocketAddress getRemoteAddress() throws IOException;

    /**
     * Shuts the output, as {@code SocketChannel#shutdownOutput}: the peer reads the end of the stream.
     *
     * @throws IOException if the socket is closed or the kernel refuses.
     */
    void shutdownOutput() throws IOException;
}
