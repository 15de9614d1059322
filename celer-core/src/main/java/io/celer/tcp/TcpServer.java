package io.celer.tcp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;

import org.agrona.collections.Long2ObjectHashMap;

import io.celer.reactor.internal.BoundSocket;
import io.celer.reactor.Reactor;
import io.celer.reactor.internal.ReactorPool;
import io.celer.reactor.internal.Selectable;
import io.celer.reactor.internal.Logs;
import io.celer.reactor.TimerCallback;

/**
 * A TCP server on a reactor: accepts clients and gives each a connection driven by one shared handler.
 */
public final class TcpServer
{
    private static final System.Logger LOG = System.getLogger(TcpServer.class.getName());
    private static final int ACCEPTS_PER_CYCLE = 64;
    private static final long NO_TIMER = Long.MIN_VALUE;
    private static final long MIN_BACK_OFF_MILLIS = 10;
    private static final long MAX_BACK_OFF_MILLIS = 1_000;
    private static final long FAILURE_LOG_INTERVAL_MILLIS = 10_000;

    private final Reactor reactor;
    private final int port;
    private final TcpConfig config;
    private final Handler handler;
    private final Long2ObjectHashMap<TcpConnection> connections = new Long2ObjectHashMap<>();

    private final BoundSocket socket;
    private final ConnectionBuffers buffers;
    private final Plumbing plumbing = new Plumbing();
    /** Accepted and not yet closed, those in their TLS handshake included. */
    private int live;
    private long refused;
    private boolean pausedAtLimit;
    private long backOffMillis;
    private long resumeTimer = NO_TIMER;
    private long failures;
    private long lastFailureLog = NO_TIMER;

    private volatile ServerSocketChannel serverChannel;

    /**
     * A server with the default settings: raw bytes, all addresses.
     *
     * @param reactor the reactor that runs it.
     * @param port    the port, 0 for an ephemeral one.
     * @param handler the application.
     */
    public TcpServer(final Reactor reactor, final int port, final Handler handler)
    {
        this(reactor, port, new TcpConfig(), handler);
    }

    /**
     * A server.
     *
     * @param reactor the reactor that runs it.
     * @param port    the port, 0 for an ephemeral one.
     * @param config  its settings.
     * @param handler the application.
     */
    public TcpServer(final Reactor reactor, final int port, final TcpConfig config, final Handler handler)
    {
        this.reactor = reactor;
        this.port = BoundSocket.checkPort(port);
        this.config = config;
        this.handler = handler;
        this.socket = new BoundSocket(reactor);
        this.buffers = ConnectionBuffers.pooled(config);
    }

    /**
     * Binds now, from any thread, and starts accepting on the reactor.
     *
     * @return this.
     * @throws UncheckedIOException if the address cannot be bound.
     * @throws IllegalArgumentException if the settings contradict each other.
     */
    public TcpServer open()
    {
        if (serverChannel != null)
        {
            throw new IllegalStateException("server on port " + port + " is already open");
        }
        config.newFraming(); // fails fast on a read buffer too small for the framing
        config.transport().check(); // and on TLS settings that cannot work
        final ServerSocketChannel channel;
        try
        {
            channel = ServerSocketChannel.open();
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.SO_REUSEADDR, config.reuseAddress());
            if (config.reusePort() && channel.supportedOptions().contains(StandardSocketOptions.SO_REUSEPORT))
            {
                channel.setOption(StandardSocketOptions.SO_REUSEPORT, true);
            }
            if (config.socketReceiveBufferSize() > 0)
            {
                // Set before listen so accepted sockets inherit it and negotiate a matching window scale.
                channel.setOption(StandardSocketOptions.SO_RCVBUF, config.socketReceiveBufferSize());
            }
            channel.bind(new InetSocketAddress(config.bindAddress(), port), config.backlog());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot listen on " + config.bindAddress() + ":" + port, ex);
        }
        try
        {
            socket.bound(channel);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        serverChannel = channel;
        reactor.execute(this::register);
        return this;
    }

    private void register()
    {
        buffers.keep();
        if (!socket.register(serverChannel, SelectionKey.OP_ACCEPT, plumbing))
        {
            closeChannel();
        }
    }

    /**
     * The port it listens on, known once open.
     *
     * @return the port, or -1 before open.
     */
    public int port()
    {
        return socket.port();
    }

    /**
     * The address it listens on.
     *
     * @return the address, or null before open.
     */
    public InetSocketAddress localAddress()
    {
        return socket.localAddress();
    }

    /**
     * Whether it accepts clients.
     *
     * @return true between open and close.
     */
    public boolean isOpen()
    {
        return serverChannel != null;
    }

    /**
     * Finds an open connection by its id; call on the reactor thread.
     *
     * @param id a {@link Connection#id()}.
     * @return the connection, or null once it closed.
     */
    public Connection connection(final long id)
    {
        reactor.checkThread("TcpServer.connection");
        return connections.get(id);
    }

    /**
     * Open connections; call on the reactor thread.
     *
     * @return how many.
     */
    public int connectionCount()
    {
        return connections.size();
    }

    /**
     * Stops accepting and closes every connection, from any thread. The port refuses connections, and can be
     * bound again, before the first connection hears of the close.
     */
    public void close()
    {
        reactor.execute(() -> closeWith(CloseReason.SERVER_CLOSED));
    }

    /** The server's side of the selector and of its connections' lives, kept off its public face. */
    private final class Plumbing implements Selectable, ConnectionOwner, TimerCallback
    {
        @Override
        public void onSelect(final SelectionKey selectedKey)
        {
            for (int i = 0; i < ACCEPTS_PER_CYCLE && accepting(); i++)
            {
                final SocketChannel accepted;
                try
                {
                    accepted = serverChannel.accept();
                }
                catch (final Throwable t)
                {
                    // Out of descriptors, say: the listener is still good, so it rests and tries again.
                    backOff("accept on " + socket.localAddress() + " failed", t);
                    return;
                }
                if (accepted == null)
                {
                    return;
                }
                if (config.maxConnections() > 0 && live >= config.maxConnections())
                {
                    refused++;
                    BoundSocket.closeQuietly(accepted); // OverLimit.CLOSE: WAIT stopped accepting at the limit
                    continue;
                }
                TcpConnection connection = null;
                live++;
                try
                {
                    connection = new TcpConnection(reactor, config, handler, this, buffers);
                    connection.accept(accepted);
                    backOffMillis = 0;
                }
                catch (final Throwable t)
                {
                    // No memory for its buffers, say: this one goes, the others are untouched, and the
                    // listener rests until some is freed.
                    live--;
                    BoundSocket.closeQuietly(accepted);
                    if (connection != null)
                    {
                        connection.returnBuffers();
                    }
                    backOff("cannot set up a connection accepted on " + socket.localAddress(), t);
                    return;
                }
            }
        }

        @Override
        public void onOpened(final TcpConnection connection)
        {
            connections.put(connection.id(), connection);
        }

        @Override
        public void onClosed(final TcpConnection connection, final CloseReason reason)
        {
            connections.remove(connection.id());
            live--;
            if (pausedAtLimit && live < config.maxConnections())
            {
                pausedAtLimit = false;
                if (resumeTimer == NO_TIMER && serverChannel != null)
                {
                    socket.interest(SelectionKey.OP_ACCEPT); // below the limit again
                }
            }
        }

        @Override
        public void onTimer(final long timerId, final long nowMillis)
        {
            resumeTimer = NO_TIMER;
            if (serverChannel != null && !pausedAtLimit)
            {
                socket.interest(SelectionKey.OP_ACCEPT);
            }
        }

        @Override
        public void onReactorStop()
        {
            closeChannel();
            for (final TcpConnection connection : new ArrayList<>(connections.values()))
            {
                connection.onReactorStop();
            }
            releasePooledBuffers();
        }
    }

    /**
     * Whether to accept now: not at a {@link TcpConfig.OverLimit#WAIT} limit; stops selecting the listener when
     * at it, until a connection closes.
     */
    private boolean accepting()
    {
        if (config.maxConnections() > 0 && live >= config.maxConnections() &&
            config.overLimit() == TcpConfig.OverLimit.WAIT)
        {
            pausedAtLimit = true;
            socket.interest(0);
            return false;
        }
        return true;
    }

    /**
     * Stops selecting the listener for a while, doubling from 10 ms up to a second while failures go on, and
     * logs at most once per interval: a server out of descriptors or memory neither spins nor floods its log.
     */
    private void backOff(final String what, final Throwable cause)
    {
        backOffMillis = backOffMillis == 0 ? MIN_BACK_OFF_MILLIS : Math.min(MAX_BACK_OFF_MILLIS, backOffMillis * 2);
        socket.interest(0);
        if (resumeTimer == NO_TIMER)
        {
            resumeTimer = reactor.schedule(backOffMillis, plumbing);
        }
        failures++;
        final long now = reactor.nowMillis();
        if (lastFailureLog == NO_TIMER || now - lastFailureLog >= FAILURE_LOG_INTERVAL_MILLIS)
        {
            lastFailureLog = now;
            Logs.log(LOG, System.Logger.Level.WARNING, what + " (" + failures + " such failures so far); " +
                "accepting again in " + backOffMillis + " ms", cause);
        }
    }

    /**
     * Accepts that failed for lack of descriptors or memory (each followed by a pause of the listener); call on
     * the reactor thread.
     *
     * @return the count since open.
     */
    public long acceptFailures()
    {
        return failures;
    }

    /**
     * Connections closed at once for being over {@link TcpConfig#maxConnections}; call on the reactor thread.
     *
     * @return the count since open.
     */
    public long refusedConnections()
    {
        return refused;
    }

    private void closeWith(final CloseReason reason)
    {
        closeChannel();
        // Before any connection hears of the close, the port must refuse and be free to bind again.
        socket.release(plumbing);
        for (final TcpConnection connection : new ArrayList<>(connections.values()))
        {
            connection.close(reason);
        }
        releasePooledBuffers();
    }

    /**
     * A closed server keeps no memory for connections it will not accept, nor what lingering ones give back.
     */
    private void releasePooledBuffers()
    {
        buffers.drain();
    }

    /** The pool of read buffers; tests look at it. */
    ReactorPool<ByteBuffer> readBuffers()
    {
        return buffers.readPool();
    }

    /** The pool of write buffers; tests look at it. */
    ReactorPool<ByteBuffer> writeBuffers()
    {
        return buffers.writePool();
    }

    private void closeChannel()
    {
        final ServerSocketChannel channel = serverChannel;
        if (channel == null)
        {
            return;
        }
        serverChannel = null;
        if (resumeTimer != NO_TIMER)
        {
            reactor.cancelTimer(resumeTimer);
            resumeTimer = NO_TIMER;
        }
        socket.close(channel);
    }

    @Override
    public String toString()
    {
        return "TcpServer[" + socket.localAddress() + "]";
    }
}
