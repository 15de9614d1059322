package io.celer.tcp;

import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.ToLongFunction;

import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorGroup;
import io.celer.reactor.internal.BoundSocket;
import io.celer.reactor.internal.ReactorPool;

/**
 * A TCP server: accepts clients and gives each a connection, on one reactor or on every reactor of a
 * {@link ReactorGroup}. A connection's events all run on the thread of the reactor it was given to, through
 * that reactor's handler.
 *
 * <p>On a group, each reactor listens on the port with {@code SO_REUSEPORT} and the kernel spreads the clients,
 * or, with {@link TcpConfig.AcceptSpread#LEAST_LOADED} (or where the option is missing), the first reactor
 * accepts them all and hands each to the reactor holding the fewest connections.
 */
public final class TcpServer
{
    private final int port;
    private final TcpConfig config;
    private final Acceptor[] acceptors;
    /** Connections accepted and not yet closed across the members, those in their TLS handshake included. */
    private final AtomicInteger live = new AtomicInteger();
    private final boolean handOff;

    private volatile boolean open;
    private volatile boolean closing;

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
     * A server on one reactor.
     *
     * @param reactor the reactor that runs it.
     * @param port    the port, 0 for an ephemeral one.
     * @param config  its settings.
     * @param handler the application.
     */
    public TcpServer(final Reactor reactor, final int port, final TcpConfig config, final Handler handler)
    {
        this(new Reactor[] {reactor}, port, config, r -> handler);
    }

    /**
     * A server on every reactor of a group, each with a handler of its own, so that a handler's state is only
     * ever touched by its reactor's thread.
     *
     * @param group    the reactors that run it.
     * @param port     the port, 0 for an ephemeral one.
     * @param config   its settings.
     * @param handlers makes the handler of each reactor, called once per reactor now.
     */
    public TcpServer(final ReactorGroup group, final int port, final TcpConfig config,
        final Function<Reactor, ? extends Handler> handlers)
    {
        this(membersOf(group), port, config, handlers);
    }

    private TcpServer(final Reactor[] reactors, final int port, final TcpConfig config,
        final Function<Reactor, ? extends Handler> handlers)
    {
        this.port = BoundSocket.checkPort(port);
        this.config = Objects.requireNonNull(config, "config must not be null");
        this.acceptors = new Acceptor[reactors.length];
        for (int i = 0; i < reactors.length; i++)
        {
            acceptors[i] = new Acceptor(this, reactors[i], config, handlers.apply(reactors[i]));
        }
        this.handOff = reactors.length > 1 &&
            (config.acceptSpread() == TcpConfig.AcceptSpread.LEAST_LOADED || !reusePortSupported(reactors[0]));
    }

    private static Reactor[] membersOf(final ReactorGroup group)
    {
        final Reactor[] reactors = new Reactor[group.size()];
        for (int i = 0; i < reactors.length; i++)
        {
            reactors[i] = group.reactor(i);
        }
        return reactors;
    }

    private static boolean reusePortSupported(final Reactor reactor)
    {
        try (ServerSocketChannel probe = reactor.internals().selectorProvider().openServerSocketChannel())
        {
            return probe.supportedOptions().contains(StandardSocketOptions.SO_REUSEPORT);
        }
        catch (final java.io.IOException ex)
        {
            return false;
        }
    }

    /**
     * Binds now, from any thread, and starts accepting on the reactors; after a {@link #close()}, once the close
     * has run on them.
     *
     * @return this.
     * @throws UncheckedIOException if the address cannot be bound.
     * @throws IllegalArgumentException if the settings contradict each other.
     */
    public synchronized TcpServer open()
    {
        if (open)
        {
            throw new IllegalStateException("server on port " + port + " is already open");
        }
        if (closing)
        {
            // A close just asked for runs on the reactors: let it end before new listeners take its place.
            for (final Acceptor acceptor : acceptors)
            {
                final Reactor reactor = acceptor.reactor();
                if (reactor.isRunning() && !reactor.isReactorThread())
                {
                    reactor.call(() -> { });
                }
            }
            closing = false;
        }
        config.newFraming(); // fails fast on a read buffer too small for the framing
        config.transport().check(); // and on TLS settings that cannot work
        final int listeners = handOff ? 1 : acceptors.length;
        final boolean reusePort = listeners > 1 || config.reusePort();
        int bound = 0;
        try
        {
            for (; bound < listeners; bound++)
            {
                acceptors[bound].bind(bound == 0 ? port : acceptors[0].port(), reusePort);
            }
        }
        catch (final RuntimeException ex)
        {
            while (bound > 0)
            {
                acceptors[--bound].unbind();
            }
            throw ex;
        }
        open = true;
        for (final Acceptor acceptor : acceptors)
        {
            acceptor.reactor().execute(acceptor::register);
        }
        return this;
    }

    /** Counts a connection in the limit; false, uncounted, when over {@link TcpConfig#maxConnections}. */
    boolean admit()
    {
        final int now = live.incrementAndGet();
        if (config.maxConnections() > 0 && now > config.maxConnections())
        {
            live.decrementAndGet();
            return false;
        }
        return true;
    }

    /** Whether {@link TcpConfig#maxConnections} connections are open. */
    boolean atLimit()
    {
        return config.maxConnections() > 0 && live.get() >= config.maxConnections();
    }

    /** Counts a closed connection out of the limit, and wakes the members that wait below it. */
    void leave()
    {
        if (live.decrementAndGet() < config.maxConnections())
        {
            for (final Acceptor acceptor : acceptors)
            {
                acceptor.wakeIfPaused();
            }
        }
    }

    /** Where the accepting member puts its next connection: itself, unless it hands connections off. */
    Acceptor leastLoaded(final Acceptor accepting)
    {
        if (!handOff)
        {
            return accepting;
        }
        Acceptor least = accepting;
        int leastLoad = accepting.load();
        for (final Acceptor acceptor : acceptors)
        {
            final int load = acceptor.load();
            if (load < leastLoad)
            {
                least = acceptor;
                leastLoad = load;
            }
        }
        return least;
    }

    /**
     * The port it listens on, known once open.
     *
     * @return the port, or -1 before open.
     */
    public int port()
    {
        return acceptors[0].port();
    }

    /**
     * The address it listens on.
     *
     * @return the address, or null before open.
     */
    public InetSocketAddress localAddress()
    {
        return acceptors[0].localAddress();
    }

    /**
     * Whether it accepts clients.
     *
     * @return true between open and close.
     */
    public boolean isOpen()
    {
        return open;
    }

    /**
     * The reactors it runs on.
     *
     * @return how many: 1 unless bound on a group.
     */
    public int reactorCount()
    {
        return acceptors.length;
    }

    /**
     * Finds an open connection of the calling reactor by its id; call on a reactor thread of the server.
     *
     * @param id a {@link Connection#id()}.
     * @return the connection, or null once it closed or when it lives on another reactor.
     */
    public Connection connection(final long id)
    {
        final Acceptor acceptor = current("TcpServer.connection");
        return acceptor == null ? null : acceptor.connection(id);
    }

    /**
     * Open connections on every reactor: exact on the thread of a one-reactor server, a recent sum otherwise.
     *
     * @return how many.
     */
    public int connectionCount()
    {
        int count = 0;
        for (final Acceptor acceptor : acceptors)
        {
            count += acceptor.connectionCount();
        }
        return count;
    }

    /**
     * Open connections on one reactor of the server; exact on that reactor's thread.
     *
     * @param index the reactor's index in its group, 0 on a one-reactor server.
     * @return how many.
     */
    public int connectionsOn(final int index)
    {
        return acceptors[index].connectionCount();
    }

    /**
     * Accepts that failed for lack of descriptors or memory (each followed by a pause of the listener).
     *
     * @return the count since open, over every reactor.
     */
    public long acceptFailures()
    {
        return sum(Acceptor::failures);
    }

    /**
     * Connections closed for lack of memory for a read or write buffer ({@link CloseReason#OUT_OF_MEMORY}).
     *
     * @return the count since open, over every reactor.
     */
    public long bufferFailures()
    {
        return sum(Acceptor::bufferFailures);
    }

    /**
     * Connections closed at once for being over {@link TcpConfig#maxConnections}.
     *
     * @return the count since open, over every reactor.
     */
    public long refusedConnections()
    {
        return sum(Acceptor::refused);
    }

    /**
     * Connections whose handshake waited for a slot, being beyond the transport's bound on handshakes at once
     * on a reactor ({@code TlsConfig.maxConcurrentHandshakes}).
     *
     * @return the count since open, over every reactor.
     */
    public long waitedHandshakes()
    {
        return sum(Acceptor::waitedHandshakes);
    }

    /**
     * Connections closed before their handshake for being beyond that bound, under the policy to close
     * ({@link CloseReason#HANDSHAKE_LIMIT}).
     *
     * @return the count since open, over every reactor.
     */
    public long refusedHandshakes()
    {
        return sum(Acceptor::refusedHandshakes);
    }

    /**
     * Connections closed for renegotiating or updating keys too often ({@link CloseReason#RENEGOTIATION_LIMIT}).
     *
     * @return the count since open, over every reactor.
     */
    public long renegotiationCloses()
    {
        return sum(Acceptor::renegotiationCloses);
    }

    private long sum(final ToLongFunction<Acceptor> count)
    {
        long sum = 0;
        for (final Acceptor acceptor : acceptors)
        {
            sum += count.applyAsLong(acceptor);
        }
        return sum;
    }

    /**
     * Stops accepting and closes every connection, from any thread. The port refuses connections, and can be
     * bound again, before the first connection of a reactor hears of the close.
     */
    public void close()
    {
        open = false;
        closing = true;
        for (final Acceptor acceptor : acceptors)
        {
            acceptor.reactor().execute(() -> acceptor.close(CloseReason.SERVER_CLOSED));
        }
    }

    private Acceptor current(final String operation)
    {
        for (final Acceptor acceptor : acceptors)
        {
            if (acceptor.reactor().isReactorThread())
            {
                return acceptor;
            }
        }
        acceptors[0].reactor().checkThread(operation);
        return acceptors.length == 1 ? acceptors[0] : null;
    }

    /** The pool of read buffers of the first reactor; tests look at it. */
    ReactorPool<ByteBuffer> readBuffers()
    {
        return acceptors[0].readBuffers();
    }

    /** Trims the buffer pools of the first reactor now, as its timer does; for tests, on its thread. */
    void trimBuffers()
    {
        acceptors[0].trimBuffers();
    }

    /** The pool of write buffers of the first reactor; tests look at it. */
    ReactorPool<ByteBuffer> writeBuffers()
    {
        return acceptors[0].writeBuffers();
    }

    @Override
    public String toString()
    {
        return "TcpServer[" + localAddress() + "]";
    }
}
