package io.celer.tcp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.Channel;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.util.concurrent.atomic.AtomicInteger;

import io.celer.reactor.Reactor;
import io.celer.reactor.StreamListener;
import io.celer.reactor.TimerCallback;
import io.celer.reactor.internal.BoundSocket;
import io.celer.reactor.internal.Logs;
import io.celer.reactor.internal.ReactorPool;
import io.celer.reactor.internal.Selectable;

/**
 * One reactor's share of a {@link TcpServer}: its listener (unless another member accepts for it), the
 * connections that live on its thread, their buffers, and the pauses of accepting at the limit or after a
 * failure. Everything here runs on its reactor's thread but the fields marked as read from others.
 */
final class Acceptor implements Selectable, ConnectionOwner, TimerCallback
{
    private static final System.Logger LOG = System.getLogger(TcpServer.class.getName());
    private static final int ACCEPTS_PER_CYCLE = 64;
    private static final long NO_TIMER = Long.MIN_VALUE;
    private static final long MIN_BACK_OFF_MILLIS = 10;
    private static final long MAX_BACK_OFF_MILLIS = 1_000;
    private static final long FAILURE_LOG_INTERVAL_MILLIS = 10_000;
    private static final long TRIM_INTERVAL_MILLIS = 10_000;

    private final TcpServer server;
    private final Reactor reactor;
    private final TcpConfig config;
    private final Handler handler;
    private final ConnectionTable connections = new ConnectionTable();
    private final BoundSocket socket;
    private final ConnectionBuffers buffers;
    /** Null when the transport sets no bound on handshakes at once. */
    private final HandshakeGate gate;
    private final Runnable resumeBelowLimit = this::resumeBelowLimit;
    /** Connections on this member, handed-off ones counted from the hand-off; read by the accepting member. */
    private final AtomicInteger load = new AtomicInteger();

    private boolean closed;
    private long backOffMillis;
    private long resumeTimer = NO_TIMER;
    private long trimTimer = NO_TIMER;
    private long lastFailureLog = NO_TIMER;
    private long lastMemoryLog = NO_TIMER;
    /** Read by other members, which resume this one when a connection of theirs closes below the limit. */
    private volatile boolean pausedAtLimit;
    /** Read by any thread, for the server's sums. */
    private volatile long refused;
    private final TcpCounters counters;
    private volatile long failures;
    private volatile long bufferFailures;
    private volatile long renegotiationCloses;
    private volatile ServerSocketChannel serverChannel;
    /** Closed connections kept for later accepts, with TcpConfig#reuseConnections. */
    private final ReactorPool<TcpConnection> spares;

    Acceptor(final TcpServer server, final Reactor reactor, final TcpConfig config, final Handler handler)
    {
        if (handler == null)
        {
            throw new IllegalArgumentException("handler must not be null");
        }
        this.server = server;
        this.reactor = reactor;
        this.config = config;
        this.handler = handler;
        this.socket = new BoundSocket(reactor);
        this.counters = TcpCounters.of(reactor.counters());
        this.buffers = ConnectionBuffers.pooled(config);
        // As many as a peak left, trimmed with the buffers; a TLS connection is never given back (see TcpConnection).
        this.spares = new ReactorPool<>(Integer.MAX_VALUE, () -> new TcpConnection(reactor, config, this, buffers));
        this.gate = HandshakeGate.of(config.transport());
    }

    Reactor reactor()
    {
        return reactor;
    }

    /**
     * Binds a listener, from any thread.
     *
     * @param port      the port, 0 for an ephemeral one.
     * @param reusePort whether other members bind the same port, or the settings ask for SO_REUSEPORT; set where
     *                  the platform has it.
     */
    void bind(final int port, final boolean reusePort)
    {
        final ServerSocketChannel channel;
        try
        {
            channel = reactor.internals().selectorProvider().openServerSocketChannel();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot open a listener for " + config.bindAddress() + ":" + port, ex);
        }
        try
        {
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.SO_REUSEADDR, config.reuseAddress());
            if (reusePort && channel.supportedOptions().contains(StandardSocketOptions.SO_REUSEPORT))
            {
                channel.setOption(StandardSocketOptions.SO_REUSEPORT, true);
            }
            if (config.socketReceiveBufferSize() > 0)
            {
                // Set before listen so accepted sockets inherit it and negotiate a matching window scale.
                channel.setOption(StandardSocketOptions.SO_RCVBUF, config.socketReceiveBufferSize());
            }
            channel.bind(new InetSocketAddress(config.bindAddress(), port), config.backlog());
            socket.bound(channel);
        }
        catch (final IOException ex)
        {
            BoundSocket.closeQuietly(channel);
            throw new UncheckedIOException("cannot listen on " + config.bindAddress() + ":" + port, ex);
        }
        serverChannel = channel;
    }

    /**
     * Undoes a {@link #bind} whose server failed to open, from the opening thread before registering.
     */
    void unbind()
    {
        final ServerSocketChannel channel = serverChannel;
        serverChannel = null;
        BoundSocket.closeQuietly(channel);
    }

    /** On the reactor thread: starts accepting, if it has a listener; again after a close, too. */
    void register()
    {
        closed = false;
        buffers.keep();
        trimTimer = reactor.schedule(TRIM_INTERVAL_MILLIS, this);
        if (serverChannel != null && !socket.register(serverChannel, SelectionKey.OP_ACCEPT, this))
        {
            closeChannel();
        }
    }

    int port()
    {
        return socket.port();
    }

    InetSocketAddress localAddress()
    {
        return socket.localAddress();
    }

    int load()
    {
        return load.get();
    }

    int connectionCount()
    {
        return connections.size();
    }

    Connection connection(final long id)
    {
        return connections.get(id);
    }

    long refused()
    {
        return refused;
    }

    long failures()
    {
        return failures;
    }

    long bufferFailures()
    {
        return bufferFailures;
    }

    @Override
    public HandshakeGate handshakeGate()
    {
        return gate;
    }

    long waitedHandshakes()
    {
        return gate == null ? 0 : gate.waited();
    }

    long refusedHandshakes()
    {
        return gate == null ? 0 : gate.refused();
    }

    long renegotiationCloses()
    {
        return renegotiationCloses;
    }

    /** The pool of read buffers; tests look at it. */
    ReactorPool<ByteBuffer> readBuffers()
    {
        return buffers.readPool();
    }

    /** Trims the buffer pools now, as the timer does; tests call it. */
    void trimBuffers()
    {
        buffers.trim();
    }

    /** The pool of write buffers; tests look at it. */
    ReactorPool<ByteBuffer> writeBuffers()
    {
        return buffers.writePool();
    }

    @Override
    public void onSelect(final SelectionKey selectedKey)
    {
        for (int i = 0; i < ACCEPTS_PER_CYCLE && accepting(); i++)
        {
            final Channel accepted;
            try
            {
                accepted = serverChannel instanceof StreamListener listener ? listener.acceptStream()
                    : serverChannel.accept();
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
            if (!server.admit())
            {
                refused++;
                counters.refusedAtLimit.increment();
                BoundSocket.closeQuietly(accepted); // OverLimit.CLOSE: WAIT stopped accepting at the limit
                continue;
            }
            final Acceptor target = server.leastLoaded(this);
            target.load.incrementAndGet();
            if (target == this || !target.handOff(accepted))
            {
                if (target != this)
                {
                    target.load.decrementAndGet();
                    load.incrementAndGet();
                }
                if (!setUp(accepted))
                {
                    return;
                }
            }
        }
    }

    /**
     * From the accepting member's thread: passes a connection to this member's thread. The task that carries it
     * is the one allocation, beside the channel that the accept allocated anyway.
     *
     * @return false when this member's callback queue is full: the caller keeps the connection.
     */
    private boolean handOff(final Channel accepted)
    {
        return reactor.callAsync(() -> adopt(accepted));
    }

    /** On this member's thread: takes a connection another member accepted for it. */
    private void adopt(final Channel accepted)
    {
        if (closed)
        {
            BoundSocket.closeQuietly(accepted);
            load.decrementAndGet();
            server.leave();
        }
        else
        {
            setUp(accepted);
        }
    }

    /**
     * Gives an accepted channel its connection, counted already in the limit and this member's load.
     *
     * @return false when it could not be set up: the listener, if any, rests.
     */
    private boolean setUp(final Channel accepted)
    {
        TcpConnection connection = null;
        try
        {
            connection = config.reuseConnections() ? spares.take()
                : new TcpConnection(reactor, config, this, buffers);
            connection.accept(accepted);
            counters.accepted.increment();
            backOffMillis = 0;
            return true;
        }
        catch (final Throwable t)
        {
            // No memory for its buffers, say: this one goes, the others are untouched, and the listener rests
            // until some is freed.
            load.decrementAndGet();
            server.leave();
            BoundSocket.closeQuietly(accepted);
            if (connection != null)
            {
                connection.returnBuffers();
            }
            backOff("cannot set up a connection accepted on " + server.localAddress(), t);
            return false;
        }
    }

    @Override
    public boolean reusesConnections()
    {
        return config.reuseConnections();
    }

    @Override
    public void reuse(final TcpConnection connection)
    {
        spares.give(connection);
    }

    @Override
    public Handler handler()
    {
        return handler;
    }

    @Override
    public void onOpened(final TcpConnection connection)
    {
        connections.add(connection);
    }

    @Override
    public void onClosed(final TcpConnection connection, final CloseReason reason)
    {
        connections.remove(connection);
        load.decrementAndGet();
        server.leave();
        if (reason == CloseReason.RENEGOTIATION_LIMIT)
        {
            renegotiationCloses++;
        }
        else if (reason == CloseReason.OUT_OF_MEMORY)
        {
            bufferFailures++;
            final long now = reactor.nowMillis();
            if (lastMemoryLog == NO_TIMER || now - lastMemoryLog >= FAILURE_LOG_INTERVAL_MILLIS)
            {
                lastMemoryLog = now;
                Logs.log(LOG, System.Logger.Level.WARNING, "no memory for a buffer of a connection to " +
                    server.localAddress() + ": closed it (" + bufferFailures + " such closes so far)");
            }
        }
    }

    @Override
    public void onTimer(final long timerId, final long nowMillis)
    {
        if (timerId == trimTimer)
        {
            // The buffers a burst of busy connections took go back once it is over.
            buffers.trim();
            spares.trim(config.bufferPoolSize());
            trimTimer = closed ? NO_TIMER : reactor.schedule(TRIM_INTERVAL_MILLIS, this);
            return;
        }
        resumeTimer = NO_TIMER;
        if (serverChannel != null && !pausedAtLimit)
        {
            socket.interest(SelectionKey.OP_ACCEPT);
        }
    }

    @Override
    public void onReactorStop()
    {
        closed = true;
        closeChannel();
        for (final TcpConnection connection : connections.snapshot())
        {
            connection.onReactorStop();
        }
        buffers.drain();
    }

    /**
     * Whether to accept now: not at a {@link TcpConfig.OverLimit#WAIT} limit; stops selecting the listener when
     * at it, until a connection closes on any member.
     */
    private boolean accepting()
    {
        if (config.overLimit() != TcpConfig.OverLimit.WAIT || !server.atLimit())
        {
            return true;
        }
        pausedAtLimit = true;
        socket.interest(0);
        // A connection of another member that closed before the flag was up did not see it: look again.
        if (!server.atLimit())
        {
            resumeBelowLimit();
            return true;
        }
        return false;
    }

    /**
     * On any thread, after a connection closed below the limit: resumes this member if it waits at the limit.
     */
    void wakeIfPaused()
    {
        if (pausedAtLimit)
        {
            if (reactor.isReactorThread())
            {
                resumeBelowLimit();
            }
            else
            {
                // Should its queue be full, the next close below the limit tries again.
                reactor.callAsync(resumeBelowLimit);
            }
        }
    }

    private void resumeBelowLimit()
    {
        if (pausedAtLimit && !server.atLimit())
        {
            pausedAtLimit = false;
            if (resumeTimer == NO_TIMER && serverChannel != null)
            {
                socket.interest(SelectionKey.OP_ACCEPT);
            }
        }
    }

    /**
     * Stops selecting the listener for a while, doubling from 10 ms up to a second while failures go on, and
     * logs at most once per interval: a server out of descriptors or memory neither spins nor floods its log.
     */
    private void backOff(final String what, final Throwable cause)
    {
        backOffMillis = backOffMillis == 0 ? MIN_BACK_OFF_MILLIS : Math.min(MAX_BACK_OFF_MILLIS, backOffMillis * 2);
        if (serverChannel != null)
        {
            socket.interest(0);
            if (resumeTimer == NO_TIMER)
            {
                resumeTimer = reactor.schedule(backOffMillis, this);
            }
        }
        failures++;
        final long now = reactor.nowMillis();
        if (lastFailureLog == NO_TIMER || now - lastFailureLog >= FAILURE_LOG_INTERVAL_MILLIS)
        {
            lastFailureLog = now;
            Logs.log(LOG, System.Logger.Level.WARNING, what + " (" + failures + " such failures so far); " +
                (serverChannel != null ? "accepting again in " + backOffMillis + " ms" : "closed it"), cause);
        }
    }

    /** On the reactor thread: stops accepting and closes every connection of this member. */
    void close(final CloseReason reason)
    {
        closed = true;
        if (trimTimer != NO_TIMER)
        {
            reactor.cancelTimer(trimTimer);
            trimTimer = NO_TIMER;
        }
        closeChannel();
        // Before any connection hears of the close, the port must refuse and be free to bind again.
        socket.release(this);
        for (final TcpConnection connection : connections.snapshot())
        {
            connection.close(reason);
        }
        // A closed server keeps no memory for connections it will not accept, nor what lingering ones give back.
        buffers.drain();
        spares.drain();
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
        return "Acceptor[" + reactor.thread().getName() + " " + server.localAddress() + "]";
    }
}
