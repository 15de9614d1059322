package io.celer.tcp;

import java.net.InetSocketAddress;

import io.celer.reactor.Reactor;
import io.celer.reactor.TimerCallback;

/**
 * A TCP client on a reactor: connects without blocking and, if configured, reconnects with back-off.
 *
 * <p>The client keeps one {@link Connection} object, with its buffers, across reconnects; each new
 * connection gets a new id.
 */
public final class TcpClient
{
    private static final long NO_TIMER = Long.MIN_VALUE;

    private final Reactor reactor;
    private final String host;
    private final int port;
    private final TcpConfig config;
    private final Handler handler;
    private final Plumbing plumbing = new Plumbing();
    private final TcpConnection connection;

    private volatile boolean open;
    private boolean wanted;
    private long reconnectTimer = NO_TIMER;
    private int failures;

    /**
     * A client with the default settings: raw bytes, no reconnect.
     *
     * @param reactor the reactor that runs it.
     * @param host    the server's host name or address.
     * @param port    the server's port.
     * @param handler the application.
     */
    public TcpClient(final Reactor reactor, final String host, final int port, final Handler handler)
    {
        this(reactor, host, port, new TcpConfig(), handler);
    }

    /**
     * A client.
     *
     * @param reactor the reactor that runs it.
     * @param host    the server's host name or address.
     * @param port    the server's port.
     * @param config  its settings.
     * @param handler the application.
     */
    public TcpClient(
        final Reactor reactor, final String host, final int port, final TcpConfig config, final Handler handler)
    {
        if (port <= 0 || port > 65535)
        {
            throw new IllegalArgumentException("port out of range: " + port);
        }
        this.reactor = reactor;
        this.host = host;
        this.port = port;
        this.config = config;
        config.transport().check();
        this.handler = handler;
        this.connection = new TcpConnection(reactor, config, plumbing, ConnectionBuffers.own(config));
    }

    /**
     * Starts connecting, from any thread; the handler hears {@code opened}, or {@code error} and
     * {@code closed} with {@link CloseReason#CONNECT_FAILED}.
     *
     * @return this.
     */
    public TcpClient open()
    {
        reactor.execute(() ->
        {
            wanted = true;
            failures = 0;
            if (!connection.isOpen() && reconnectTimer == NO_TIMER)
            {
                connect();
            }
        });
        return this;
    }

    /**
     * Closes the connection and stops reconnecting, from any thread.
     */
    public void close()
    {
        reactor.execute(() ->
        {
            wanted = false;
            if (reconnectTimer != NO_TIMER)
            {
                reactor.cancelTimer(reconnectTimer);
                reconnectTimer = NO_TIMER;
            }
            connection.close();
        });
    }

    /**
     * Whether the connection is established; readable from any thread.
     *
     * @return true while connected.
     */
    public boolean isOpen()
    {
        return open;
    }

    /**
     * The connection, the same object across reconnects.
     *
     * @return the connection.
     */
    public Connection connection()
    {
        return connection;
    }

    /**
     * The server's port.
     *
     * @return the port.
     */
    public int port()
    {
        return port;
    }

    private void connect()
    {
        connection.connect(new InetSocketAddress(host, port));
    }

    /** The client's side of its connection's life and of its reconnect timer, kept off its public face. */
    private final class Plumbing implements ConnectionOwner, TimerCallback
    {
        @Override
        public Handler handler()
        {
            return handler;
        }

        @Override
        public void onOpened(final TcpConnection opened)
        {
            failures = 0;
            open = true;
        }

        @Override
        public void onClosed(final TcpConnection closed, final CloseReason reason)
        {
            open = false;
            if (wanted && reason != CloseReason.LOCAL_CLOSE && reason != CloseReason.REACTOR_STOPPED &&
                config.reconnectDelayMillis() > 0)
            {
                final long delay = Math.min(
                    config.maxReconnectDelayMillis(), config.reconnectDelayMillis() << Math.min(failures, 20));
                failures++;
                reconnectTimer = reactor.schedule(delay, this);
            }
        }

        @Override
        public void onTimer(final long timerId, final long nowMillis)
        {
            reconnectTimer = NO_TIMER;
            if (wanted && !connection.isOpen())
            {
                connect();
            }
        }
    }

    @Override
    public String toString()
    {
        return "TcpClient[" + host + ":" + port + "]";
    }
}
