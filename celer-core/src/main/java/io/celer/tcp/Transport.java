package io.celer.tcp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;

import io.celer.counters.CounterScope;

/**
 * How a connection's bytes cross its socket: as they are, or through a security layer such as TLS.
 *
 * <p>A service-provider interface: applications choose a transport with {@link TcpConfig#transport}. One
 * instance serves one connection, on the reactor thread; the connection keeps its all-or-nothing write
 * semantics above it.
 */
public interface Transport
{
    /**
     * Starts or continues the handshake, without blocking.
     *
     * @param channel the connected socket.
     * @return true once the connection can carry application bytes.
     * @throws IOException if the handshake failed or the peer went away.
     */
    boolean handshake(ByteChannel channel) throws IOException;

    /**
     * Whether the handshake, which {@link #handshake} just left unfinished, waits for work the transport runs on
     * another thread (TLS's engine calls, its signature and key agreement among them) rather than for the socket:
     * the connection then watches nothing until the transport calls what {@link #resumeHandshakeThrough} gave it.
     *
     * @return true while that work runs.
     */
    default boolean handshakeWorkPending()
    {
        return false;
    }

    /**
     * Called once, before the handshake: what the transport runs, on the thread of its work, when work it
     * moved off the reactor thread is done; the connection then calls {@link #handshake} again on its reactor.
     * Calling it when the connection has closed, or more than once, does no harm. One call says both, so that a
     * transport that wraps another and passes the way back on passes the confinement with it.
     *
     * @param resume            the way back to the reactor, from any thread.
     * @param channelIoConfined whether the socket may be read and written on the reactor thread alone (the
     *                          io_uring transport's rings): work moved off that thread must then leave the
     *                          socket's reads and writes to {@link #handshake}, on the reactor thread.
     */
    default void resumeHandshakeThrough(final Runnable resume, final boolean channelIoConfined)
    {
    }

    /**
     * Reads application bytes into {@code destination}.
     *
     * @param channel     the socket.
     * @param destination where application bytes go, in fill mode.
     * @param fromSocket  false to deliver only what the layer already holds, without reading the socket.
     * @return bytes added; -1 at the end of the stream when nothing was added.
     * @throws IOException on I/O or protocol errors.
     */
    int read(ByteChannel channel, ByteBuffer destination, boolean fromSocket) throws IOException;

    /**
     * Whether {@link #read} with {@code fromSocket} false would add bytes or report the end of the stream.
     *
     * @return true when application bytes, or the end of the stream, wait in the layer.
     */
    boolean hasBufferedInput();

    /**
     * Writes application bytes, as many as the socket takes now; what it does not take stays in
     * {@code source}.
     *
     * @param channel the socket.
     * @param source  application bytes, flipped.
     * @throws IOException on I/O or protocol errors.
     */
    void write(ByteChannel channel, ByteBuffer source) throws IOException;

    /**
     * Whether bytes wait below the application's write buffer for the socket to take them.
     *
     * @return true while the layer holds output.
     */
    boolean hasPendingOutput();

    /**
     * Says goodbye in the protocol (TLS close_notify, say), best effort and without blocking.
     *
     * @param channel the socket, about to close.
     */
    void shutdown(ByteChannel channel);

    /**
     * Where the layer counts what only it sees (TLS alerts, say); called once, on the reactor thread, before the
     * handshake.
     *
     * @param scope the connection's reactor's counters.
     */
    default void countInto(final CounterScope scope)
    {
    }

    /**
     * Lets go of what the layer holds (buffers it borrowed), once the connection closed; nothing is called after.
     */
    default void release()
    {
    }
}
