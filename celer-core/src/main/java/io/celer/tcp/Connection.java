package io.celer.tcp;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

import io.celer.reactor.Reactor;

/**
 * One TCP connection, client or server side; every method is for the reactor thread only.
 *
 * <p>Writing is all or nothing: a message is framed and copied into the connection's write buffer whole, or
 * not at all, so nothing partial ever reaches the wire. {@link #flush()} moves the buffer to the socket;
 * bytes written and not flushed are flushed once the read that the handler answered ends, or else at the end
 * of the reactor cycle. When the socket cannot take
 * them all the connection is lagging until it drains, and {@link Handler#writable} tells as room
 * frees up.
 *
 * <p>A handle stays this connection's after the close, when its writes return false; on a server that reuses its
 * connections ({@link TcpConfig#reuseConnections}), only until {@link Handler#closed} returns.
 */
public interface Connection
{
    /**
     * A process-wide unique id, stable for the connection's life, for finding it again from the reactor
     * thread (see {@link TcpServer#connection(long)}).
     *
     * @return the id.
     */
    long id();

    /**
     * The reactor that runs this connection.
     *
     * @return the reactor.
     */
    Reactor reactor();

    /**
     * Whether the connection is established and not closing.
     *
     * @return true while it can be written to.
     */
    boolean isOpen();

    /**
     * Frames and buffers a message without flushing: the bytes between position and limit, after which
     * position is at limit.
     *
     * @param message the message.
     * @return false, with the buffer untouched, when it does not fit or the connection is not open.
     * @throws IllegalArgumentException if the framing cannot carry it or it is larger than the write buffer.
     */
    boolean write(ByteBuffer message);

    /**
     * Frames and buffers a message without flushing.
     *
     * @param message the message.
     * @return false when it does not fit or the connection is not open.
     */
    boolean write(byte[] message);

    /**
     * Frames and buffers part of an array without flushing.
     *
     * @param message the array.
     * @param offset  first byte.
     * @param length  bytes.
     * @return false when it does not fit or the connection is not open.
     */
    boolean write(byte[] message, int offset, int length);

    /**
     * Frames and buffers text, one byte per char (ASCII; chars above 255 are written as {@code ?}).
     *
     * @param message the text.
     * @return false when it does not fit or the connection is not open.
     */
    boolean write(CharSequence message);

    /**
     * Moves buffered bytes to the socket, as many as it takes now.
     */
    void flush();

    /**
     * {@link #write(ByteBuffer)} then {@link #flush()}.
     *
     * @param message the message.
     * @return false when it was not written.
     */
    boolean send(ByteBuffer message);

    /**
     * {@link #write(byte[])} then {@link #flush()}.
     *
     * @param message the message.
     * @return false when it was not written.
     */
    boolean send(byte[] message);

    /**
     * {@link #write(byte[], int, int)} then {@link #flush()}.
     *
     * @param message the array.
     * @param offset  first byte.
     * @param length  bytes.
     * @return false when it was not written.
     */
    boolean send(byte[] message, int offset, int length);

    /**
     * {@link #write(CharSequence)} then {@link #flush()}.
     *
     * @param message the text.
     * @return false when it was not written.
     */
    boolean send(CharSequence message);

    /**
     * Whether the socket could not take the whole write buffer at the last flush.
     *
     * @return true until the buffer drains.
     */
    boolean isLagging();

    /**
     * Room left in the write buffer.
     *
     * @return bytes.
     */
    int writeBufferRemaining();

    /**
     * Size of the write buffer.
     *
     * @return bytes.
     */
    int writeBufferCapacity();

    /**
     * Hands the connection's events to another handler: {@code next} hears {@link Handler#opened} at once, then
     * every event; the handler before hears nothing more. Called inside {@link Handler#message} on a connection
     * with {@link io.celer.framing.RawFraming}, the bytes the old handler left go to {@code next} in the same
     * read. Lasts until the connection closes (a client's next connect starts with its first handler again).
     * Does nothing on a connection that is not open.
     *
     * @param next the handler from now on.
     */
    void handler(Handler next);

    /**
     * The handler hearing this connection's events now.
     *
     * @return the handler.
     */
    Handler handler();

    /**
     * Stops reading: no {@link Handler#message} after the current one until {@link #resumeReads()}. What was
     * read stays buffered, the kernel's receive buffer fills, and TCP flow control slows the peer down; the read
     * timeout does not run meanwhile. For a handler whose downstream (a worker queue, a slow client) is full.
     * Does nothing on a connection that is not open.
     */
    void pauseReads();

    /**
     * Reads again after {@link #pauseReads()}: messages already buffered are delivered at the end of the current
     * reactor cycle, then the socket is read as before.
     */
    void resumeReads();

    /**
     * Whether {@link #pauseReads()} is in effect.
     *
     * @return true while paused.
     */
    boolean isReadPaused();

    /**
     * Closes the connection after flushing what is buffered (waiting for a lagging socket up to the
     * configured linger time); {@link Handler#closed} follows with {@link CloseReason#LOCAL_CLOSE}.
     */
    void close();

    /**
     * Arms the event timeout, replacing any armed one: {@link Handler#eventTimeout} fires once after the delay.
     *
     * @param delayMillis milliseconds from now.
     */
    void setEventTimeout(long delayMillis);

    /**
     * Disarms the event timeout.
     */
    void cancelEventTimeout();

    /**
     * Arms the read timeout: {@link Handler#readTimeout} fires when no byte arrived for that long.
     *
     * @param timeoutMillis milliseconds of silence; 0 disarms it.
     */
    void setReadTimeout(long timeoutMillis);

    /**
     * The peer's address. On the native transports an accepted connection keeps it as numbers and makes the
     * object when first asked (or at the close); on a server that reuses its connections
     * ({@link TcpConfig#reuseConnections}) it is known until {@link Handler#closed} returns.
     *
     * @return the address, or null before the connection opened.
     */
    InetSocketAddress remoteAddress();

    /**
     * The size of the kernel's send buffer, as the kernel granted it.
     *
     * @return bytes, or -1 when the socket is closed.
     */
    int socketSendBufferSize();

    /**
     * The size of the kernel's receive buffer, as the kernel granted it.
     *
     * @return bytes, or -1 when the socket is closed.
     */
    int socketReceiveBufferSize();

    /**
     * Application state attached to this connection.
     *
     * @param <T> its type.
     * @return what {@link #attach} stored, or null.
     */
    <T> T attachment();

    /**
     * Attaches application state to this connection.
     *
     * @param attachment anything, or null.
     */
    void attach(Object attachment);
}
