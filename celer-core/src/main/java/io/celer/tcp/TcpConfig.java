package io.celer.tcp;

import static io.celer.reactor.internal.ConfigChecks.notNegative;
import static io.celer.reactor.internal.ConfigChecks.positive;

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.channels.NetworkChannel;
import java.nio.channels.SocketChannel;
import java.util.Objects;
import java.util.function.Supplier;

import io.celer.framing.Framing;
import io.celer.framing.RawFraming;

/**
 * Settings of TCP servers, clients and their connections; fluent, read when a server or client opens.
 */
public final class TcpConfig
{
    private String bindAddress = "0.0.0.0";
    private Supplier<Framing> framing = () -> RawFraming.INSTANCE;
    private int readBufferSize = 64 * 1024;
    private int writeBufferSize = 64 * 1024;
    private boolean tcpNoDelay = true;
    private boolean busyPoll = false;
    // Boxed once here: setOption takes an Integer, and 4 MiB is beyond the JDK's box cache, so an int would be
    // boxed anew for every connection.
    private Integer socketSendBufferSize = 4 * 1024 * 1024;
    private Integer socketReceiveBufferSize = 4 * 1024 * 1024;
    private boolean reuseAddress = true;
    private boolean reusePort = false;
    private boolean keepAlive = false;
    private int backlog = 1024;
    private int maxConnections = 0;
    private OverLimit overLimit = OverLimit.WAIT;
    private AcceptSpread acceptSpread = AcceptSpread.REUSE_PORT;
    private boolean disconnectOnFullWriteBuffer = true;
    private long reconnectDelayMillis = 0;
    private long maxReconnectDelayMillis = 30_000;
    private long connectTimeoutMillis = 10_000;
    private long closeLingerMillis = 5_000;
    private long sendTimeoutMillis = 60_000;
    private long readTimeoutMillis = 0;
    private TransportFactory transport = PlainTransport.INSTANCE;
    private long handshakeTimeoutMillis = 10_000;
    private int bufferPoolSize = 64;
    private boolean reuseConnections = false;

    /**
     * Settings with every default, to be changed by the methods below.
     */
    public TcpConfig()
    {
    }

    /**
     * An independent copy, so a component can add its own settings (its framing, say) to a caller's base.
     *
     * @return a new config with the same settings.
     */
    public TcpConfig copy()
    {
        final TcpConfig copy = new TcpConfig();
        copy.bindAddress = bindAddress;
        copy.framing = framing;
        copy.readBufferSize = readBufferSize;
        copy.writeBufferSize = writeBufferSize;
        copy.tcpNoDelay = tcpNoDelay;
        copy.busyPoll = busyPoll;
        copy.socketSendBufferSize = socketSendBufferSize;
        copy.socketReceiveBufferSize = socketReceiveBufferSize;
        copy.reuseAddress = reuseAddress;
        copy.reusePort = reusePort;
        copy.keepAlive = keepAlive;
        copy.backlog = backlog;
        copy.disconnectOnFullWriteBuffer = disconnectOnFullWriteBuffer;
        copy.reconnectDelayMillis = reconnectDelayMillis;
        copy.maxReconnectDelayMillis = maxReconnectDelayMillis;
        copy.connectTimeoutMillis = connectTimeoutMillis;
        copy.closeLingerMillis = closeLingerMillis;
        copy.sendTimeoutMillis = sendTimeoutMillis;
        copy.readTimeoutMillis = readTimeoutMillis;
        copy.transport = transport;
        copy.handshakeTimeoutMillis = handshakeTimeoutMillis;
        copy.bufferPoolSize = bufferPoolSize;
        copy.reuseConnections = reuseConnections;
        copy.maxConnections = maxConnections;
        copy.overLimit = overLimit;
        copy.acceptSpread = acceptSpread;
        return copy;
    }

    /**
     * Local address a server binds to; {@code 0.0.0.0} by default.
     *
     * @param address a host name or IP literal.
     * @return this.
     */
    public TcpConfig bindAddress(final String address)
    {
        this.bindAddress = address;
        return this;
    }

    /**
     * How connections cut the stream into messages; raw bytes by default.
     *
     * @param framing gives each connection its framing: a new one for a framing with state, or one shared
     *                instance for a framing without.
     * @return this.
     */
    public TcpConfig framing(final Supplier<Framing> framing)
    {
        this.framing = framing;
        return this;
    }

    /**
     * Size of each connection's read buffer, a direct buffer allocated once; 64 KiB by default.
     *
     * @param bytes at least the framing's longest frame.
     * @return this.
     */
    public TcpConfig readBufferSize(final int bytes)
    {
        this.readBufferSize = positive(bytes, "readBufferSize");
        return this;
    }

    /**
     * Size of each connection's write buffer, a direct buffer allocated once; 64 KiB by default.
     *
     * @param bytes the most a connection buffers before it lags.
     * @return this.
     */
    public TcpConfig writeBufferSize(final int bytes)
    {
        this.writeBufferSize = positive(bytes, "writeBufferSize");
        return this;
    }

    /**
     * TCP_NODELAY; on by default, so small messages leave at once.
     *
     * @param on the option.
     * @return this.
     */
    public TcpConfig tcpNoDelay(final boolean on)
    {
        this.tcpNoDelay = on;
        return this;
    }

    /**
     * Whether open connections are read every reactor cycle instead of when the selector reports them
     * readable; off by default. Saves a select per message on a few latency-critical connections; each polled
     * connection costs a read system call per cycle, so leave it off for servers with many connections. See
     * {@link io.celer.reactor.ReactorConfig#selectInterval(int)}.
     *
     * @param on the option.
     * @return this.
     */
    public TcpConfig busyPoll(final boolean on)
    {
        this.busyPoll = on;
        return this;
    }

    /**
     * SO_SNDBUF to ask for; 4 MiB by default, 0 for the kernel's default. The kernel may grant less: see
     * {@link Connection#socketSendBufferSize()}.
     *
     * @param bytes the size.
     * @return this.
     */
    public TcpConfig socketSendBufferSize(final int bytes)
    {
        this.socketSendBufferSize = notNegative(bytes, "socketSendBufferSize");
        return this;
    }

    /**
     * SO_RCVBUF to ask for; 4 MiB by default, 0 for the kernel's default.
     *
     * @param bytes the size.
     * @return this.
     */
    public TcpConfig socketReceiveBufferSize(final int bytes)
    {
        this.socketReceiveBufferSize = notNegative(bytes, "socketReceiveBufferSize");
        return this;
    }

    /**
     * SO_REUSEADDR on a server's socket; on by default.
     *
     * @param on the option.
     * @return this.
     */
    public TcpConfig reuseAddress(final boolean on)
    {
        this.reuseAddress = on;
        return this;
    }

    /**
     * SO_REUSEPORT on a server's socket, where the platform has it; off by default.
     *
     * @param on the option.
     * @return this.
     */
    public TcpConfig reusePort(final boolean on)
    {
        this.reusePort = on;
        return this;
    }

    /**
     * SO_KEEPALIVE; off by default.
     *
     * @param on the option.
     * @return this.
     */
    public TcpConfig keepAlive(final boolean on)
    {
        this.keepAlive = on;
        return this;
    }

    /**
     * How many read and write buffers a server keeps, at least, for its connections to borrow; 64 by default.
     * A server's connection borrows a read buffer only while it holds part of a message, and a write buffer only
     * while the socket has not taken all it wrote, so an idle connection holds none. The pools keep as many as
     * were busy at once, so that a steady load never allocates, and every 10 seconds let go of those a past peak
     * left, down to this many (8 MiB with the default sizes); all go back when the server closes. A busy-polled
     * server's connections keep a pair each from accept to close, and the pools keep at most this many pairs
     * for the next. A client keeps its one pair across reconnects and ignores it.
     *
     * @param connections pairs of buffers kept.
     * @return this.
     */
    public TcpConfig bufferPoolSize(final int connections)
    {
        this.bufferPoolSize = notNegative(connections, "bufferPoolSize");
        return this;
    }

    /**
     * Whether a server reuses its connection objects; off by default. On, a closed connection's object, and on
     * the native transports its channel and key, serve a later accept, so that an accept allocates nothing once
     * the server has seen its peak; as with the buffers, the server keeps as many spare objects as were out at
     * once, and every 10 seconds lets go of those a past peak left, down to {@link #bufferPoolSize}.
     *
     * <p>The contract changes with it: a {@link Connection} stands for one connection from
     * {@link Handler#opened} until {@link Handler#closed} returns, and its {@link Connection#remoteAddress} is
     * known only until then. A handler must let go of it in {@code closed}; a task that may run later (on
     * another thread, on a timer) keeps its {@link Connection#id} instead and finds it again with
     * {@link TcpServer#connection(long)}, which answers null once that connection closed, since the same object
     * may by then stand for another peer. Off, every connection is a new object, which a handler may keep as long
     * as it likes. A TLS connection is never reused (its handshake's work on another thread may outlive the
     * close, and its engine is new anyway). A client ignores this: it keeps its one connection across
     * reconnects; so do the HTTP and WebSocket servers, whose responses hand out their connection and may
     * outlive a close.
     *
     * @param on whether to reuse them.
     * @return this.
     */
    public TcpConfig reuseConnections(final boolean on)
    {
        this.reuseConnections = on;
        return this;
    }

    /**
     * Length of a server's accept queue; 1024 by default.
     *
     * @param backlog pending connections.
     * @return this.
     */
    public TcpConfig backlog(final int backlog)
    {
        this.backlog = positive(backlog, "backlog");
        return this;
    }

    /**
     * What a server does with a connection beyond {@link #maxConnections}.
     */
    public enum OverLimit
    {
        /** Stops accepting until a connection closes: the kernel keeps the rest waiting in the accept queue. */
        WAIT,
        /** Accepts and closes it at once, counted in {@link TcpServer#refusedConnections()}. */
        CLOSE
    }

    /**
     * The most connections a server holds at once, those still in their TLS handshake included; 0 (the default)
     * for no limit but the process's descriptors and memory.
     *
     * @param connections the limit.
     * @return this.
     */
    public TcpConfig maxConnections(final int connections)
    {
        this.maxConnections = notNegative(connections, "maxConnections");
        return this;
    }

    /**
     * What a server does at {@link #maxConnections}: {@link OverLimit#WAIT} by default.
     *
     * @param policy wait or close.
     * @return this.
     */
    public TcpConfig overLimit(final OverLimit policy)
    {
        if (policy == null)
        {
            throw new IllegalArgumentException("overLimit must not be null");
        }
        this.overLimit = policy;
        return this;
    }

    /**
     * How a server on a {@link io.celer.reactor.ReactorGroup} spreads its clients over the reactors.
     */
    public enum AcceptSpread
    {
        /**
         * Each reactor listens on the port with {@code SO_REUSEPORT}, and the kernel picks one per client by a
         * hash of its addresses: no thread hands connections to another. Even over many clients, not over a few
         * (of 10, two reactors get 3 and 7 or worse in about a third of cases): for a few long-lived connections,
         * {@link #LEAST_LOADED}. Where the platform lacks the option, {@link #LEAST_LOADED} instead.
         */
        REUSE_PORT,
        /**
         * The first reactor accepts every client and passes each to the reactor holding the fewest connections:
         * an even spread whatever the clients' addresses, at the cost of a hand-off per accept.
         */
        LEAST_LOADED
    }

    /**
     * How a server on a group spreads clients over its reactors: {@link AcceptSpread#REUSE_PORT} by default.
     * A server on one reactor ignores it.
     *
     * @param spread the policy.
     * @return this.
     */
    public TcpConfig acceptSpread(final AcceptSpread spread)
    {
        if (spread == null)
        {
            throw new IllegalArgumentException("acceptSpread must not be null");
        }
        this.acceptSpread = spread;
        return this;
    }

    /**
     * Whether a write that does not fit closes the connection, with a log line; on by default. Turn it
     * off to handle lagging: retry on {@link Handler#writable}.
     *
     * @param on the option.
     * @return this.
     */
    public TcpConfig disconnectOnFullWriteBuffer(final boolean on)
    {
        this.disconnectOnFullWriteBuffer = on;
        return this;
    }

    /**
     * A client's first delay before it reconnects after losing or failing a connection, doubled on each
     * failure up to {@link #maxReconnectDelayMillis}; 0 (the default) never reconnects.
     *
     * @param millis the delay.
     * @return this.
     */
    public TcpConfig reconnectDelayMillis(final long millis)
    {
        this.reconnectDelayMillis = notNegative(millis, "reconnectDelayMillis");
        return this;
    }

    /**
     * Longest delay between reconnect attempts; 30 s by default.
     *
     * @param millis the delay.
     * @return this.
     */
    public TcpConfig maxReconnectDelayMillis(final long millis)
    {
        this.maxReconnectDelayMillis = positive(millis, "maxReconnectDelayMillis");
        return this;
    }

    /**
     * How long a client waits for a connect to complete; 10 s by default.
     *
     * @param millis the timeout.
     * @return this.
     */
    public TcpConfig connectTimeoutMillis(final long millis)
    {
        this.connectTimeoutMillis = positive(millis, "connectTimeoutMillis");
        return this;
    }

    /**
     * How long a lagging connection may go with its peer taking none of the bytes waiting for it before it closes
     * with {@link CloseReason#SEND_TIMEOUT}, as nginx's {@code send_timeout}: a peer that stops reading cannot
     * hold a connection, its buffers and whatever waits to be sent to it forever, whether or not reads are
     * paused. 60 s by default; 0 never closes.
     *
     * @param millis the timeout.
     * @return this.
     */
    public TcpConfig sendTimeoutMillis(final long millis)
    {
        this.sendTimeoutMillis = notNegative(millis, "sendTimeoutMillis");
        return this;
    }

    /**
     * How long a connection may hear nothing from its peer before it closes with {@link CloseReason#READ_TIMEOUT}:
     * on a path that broke without a word (a partition, a peer host gone), nothing else tells TCP before its
     * retransmissions give up, minutes later. A client then reconnects with its back-off. Counted while reading
     * only (not while reads are paused); a handler that arms its own {@link Connection#setReadTimeout} takes the
     * timer over. 0 (the default) never closes; for a protocol with heartbeats, a few of their periods.
     *
     * @param millis the timeout.
     * @return this.
     */
    public TcpConfig readTimeoutMillis(final long millis)
    {
        this.readTimeoutMillis = notNegative(millis, "readTimeoutMillis");
        return this;
    }

    /**
     * How long a closing connection waits for a lagging socket to take its buffered bytes; 5 s by default.
     *
     * @param millis the timeout.
     * @return this.
     */
    public TcpConfig closeLingerMillis(final long millis)
    {
        this.closeLingerMillis = notNegative(millis, "closeLingerMillis");
        return this;
    }

    /**
     * How bytes cross the socket: plain by default; a {@code io.celer.tls.TlsConfig} turns TLS on with the
     * same handlers and framing.
     *
     * @param transport makes one transport per connection.
     * @return this.
     */
    public TcpConfig transport(final TransportFactory transport)
    {
        this.transport = Objects.requireNonNull(transport, "transport must not be null");
        return this;
    }

    /**
     * How long a transport's handshake (TLS) may take before the connection fails; 10 s by default.
     *
     * @param millis the timeout.
     * @return this.
     */
    public TcpConfig handshakeTimeoutMillis(final long millis)
    {
        this.handshakeTimeoutMillis = positive(millis, "handshakeTimeoutMillis");
        return this;
    }

    TransportFactory transport()
    {
        return transport;
    }

    long handshakeTimeoutMillis()
    {
        return handshakeTimeoutMillis;
    }

    String bindAddress()
    {
        return bindAddress;
    }

    Framing newFraming()
    {
        final Framing f = framing.get();
        if (f.maxFrameLength() != Integer.MAX_VALUE && f.maxFrameLength() > readBufferSize)
        {
            throw new IllegalArgumentException("read buffer of " + readBufferSize +
                " bytes cannot hold the framing's longest frame of " + f.maxFrameLength() + " bytes");
        }
        return f;
    }

    int readBufferSize()
    {
        return readBufferSize;
    }

    int writeBufferSize()
    {
        return writeBufferSize;
    }

    boolean busyPoll()
    {
        return busyPoll;
    }

    boolean tcpNoDelay()
    {
        return tcpNoDelay;
    }

    int socketSendBufferSize()
    {
        return socketSendBufferSize;
    }

    int socketReceiveBufferSize()
    {
        return socketReceiveBufferSize;
    }

    boolean reuseAddress()
    {
        return reuseAddress;
    }

    boolean reusePort()
    {
        return reusePort;
    }

    boolean keepAlive()
    {
        return keepAlive;
    }

    /**
     * Sets a new socket's options: only those that change something, since each is a system call per accept.
     * Keep-alive is off on a new socket, and an accepted one inherits it, and the receive buffer set before
     * listen, from the listener.
     */
    void configure(final NetworkChannel channel, final boolean clientMode) throws IOException
    {
        if (channel instanceof SocketChannel socketChannel)
        {
            socketChannel.configureBlocking(false); // a StreamSocket is never blocking
        }
        channel.setOption(StandardSocketOptions.TCP_NODELAY, tcpNoDelay);
        if (keepAlive)
        {
            channel.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
        }
        if (socketSendBufferSize > 0)
        {
            channel.setOption(StandardSocketOptions.SO_SNDBUF, socketSendBufferSize);
        }
        if (socketReceiveBufferSize > 0 && clientMode)
        {
            channel.setOption(StandardSocketOptions.SO_RCVBUF, socketReceiveBufferSize);
        }
    }

    boolean reuseConnections()
    {
        return reuseConnections;
    }

    int bufferPoolSize()
    {
        return bufferPoolSize;
    }

    long sendTimeoutMillis()
    {
        return sendTimeoutMillis;
    }

    long readTimeoutMillis()
    {
        return readTimeoutMillis;
    }

    int maxConnections()
    {
        return maxConnections;
    }

    OverLimit overLimit()
    {
        return overLimit;
    }

    AcceptSpread acceptSpread()
    {
        return acceptSpread;
    }

    int backlog()
    {
        return backlog;
    }

    boolean disconnectOnFullWriteBuffer()
    {
        return disconnectOnFullWriteBuffer;
    }

    long reconnectDelayMillis()
    {
        return reconnectDelayMillis;
    }

    long maxReconnectDelayMillis()
    {
        return maxReconnectDelayMillis;
    }

    long connectTimeoutMillis()
    {
        return connectTimeoutMillis;
    }

    long closeLingerMillis()
    {
        return closeLingerMillis;
    }
}
