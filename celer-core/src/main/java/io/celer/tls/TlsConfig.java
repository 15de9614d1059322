package io.celer.tls;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executor;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;

import io.celer.tcp.TcpConfig;
import io.celer.tcp.Transport;
import io.celer.tcp.TransportFactory;

/**
 * TLS settings for TCP servers and clients: pass one to {@code TcpConfig.transport} to turn TLS on.
 *
 * <p>A client verifies the server's certificate chain against the trust store (the JDK's default one when
 * none is given) and the host name it connected to; nothing is trusted that nobody checked. A server needs a
 * key store with its certificate and key.
 */
public final class TlsConfig implements TransportFactory
{
    private StoreFile keyStore;
    private StoreFile trustStore;
    private List<String> protocols = List.of("TLSv1.3", "TLSv1.2");
    private List<String> cipherSuites;
    private ClientAuth clientAuth = ClientAuth.NONE;
    private String serverName;
    private boolean verifyHostname = true;
    private SSLContext context;
    private int maxConcurrentHandshakes = 64;
    private TcpConfig.OverLimit handshakesOverLimit = TcpConfig.OverLimit.WAIT;
    private int maxRenegotiations = 10;
    private long renegotiationIntervalMillis = 60_000;
    private Executor handshakeExecutor = SharedHandshakeExecutor.INSTANCE;
    private final TlsTransport.EngineFactory engines = this::newEngine;
    /** The engines' record buffer sizes, alike for all: read once from a first engine, off the reactor threads. */
    private volatile int packetSize; // written after plaintextSize, read before it
    private int plaintextSize;

    /**
     * TLS settings with every default (the JDK's trust store, no key store), to be changed by the methods below.
     */
    public TlsConfig()
    {
    }

    /**
     * The key store holding this side's certificate chain and private key; needed by a server.
     *
     * @param path     a PKCS12 ({@code .p12}, {@code .pfx}) or JKS ({@code .jks}) file.
     * @param password its password, also the key's.
     * @return this.
     */
    public TlsConfig keyStore(final Path path, final String password)
    {
        this.keyStore = StoreFile.of(path, password);
        this.context = null;
        return this;
    }

    /**
     * The certificates trusted to sign the peer's; the JDK's default trust store when not set.
     *
     * @param path     a PKCS12 or JKS file.
     * @param password its password.
     * @return this.
     */
    public TlsConfig trustStore(final Path path, final String password)
    {
        this.trustStore = StoreFile.of(path, password);
        this.context = null;
        return this;
    }

    /**
     * Protocol versions allowed; TLS 1.3 and 1.2 by default.
     *
     * @param versions names such as {@code TLSv1.3}.
     * @return this.
     */
    public TlsConfig protocols(final String... versions)
    {
        this.protocols = List.of(versions);
        return this;
    }

    /**
     * Cipher suites allowed; the JDK's defaults when not set.
     *
     * @param suites names such as {@code TLS_AES_128_GCM_SHA256}.
     * @return this.
     */
    public TlsConfig cipherSuites(final String... suites)
    {
        this.cipherSuites = List.of(suites);
        return this;
    }

    /**
     * Whether a server asks clients for certificates; {@link ClientAuth#NONE} by default.
     *
     * @param clientAuth the policy.
     * @return this.
     */
    public TlsConfig clientAuth(final ClientAuth clientAuth)
    {
        this.clientAuth = clientAuth;
        return this;
    }

    /**
     * The server name a client sends (SNI) and checks the certificate against, when it differs from the
     * host it connects to (an IP address, say).
     *
     * @param name a DNS host name.
     * @return this.
     */
    public TlsConfig serverName(final String name)
    {
        this.serverName = name;
        return this;
    }

    /**
     * Whether a client checks that the server's certificate names the host; on by default. Turning it off
     * still verifies the chain.
     *
     * @param on the option.
     * @return this.
     */
    public TlsConfig verifyHostname(final boolean on)
    {
        this.verifyHostname = on;
        return this;
    }

    /**
     * Uses a ready SSL context instead of the stores above.
     *
     * @param sslContext the context.
     * @return this.
     */
    public TlsConfig sslContext(final SSLContext sslContext)
    {
        this.context = sslContext;
        return this;
    }

    /**
     * The most handshakes a server runs at once on one reactor; 64 by default, 0 for no bound. A handshake
     * holds an engine, buffers, and a signature and a key agreement to do (on the {@link #handshakeExecutor}),
     * so a flood of new connections would otherwise hold memory and queue work without limit; beyond the bound
     * a new connection waits or is closed, as {@link #handshakesOverLimit} says. Its handshake timeout
     * ({@code TcpConfig.handshakeTimeoutMillis}) runs from its accept, waiting included.
     *
     * @param handshakes the bound.
     * @return this.
     */
    public TlsConfig maxConcurrentHandshakes(final int handshakes)
    {
        if (handshakes < 0)
        {
            throw new IllegalArgumentException("maxConcurrentHandshakes is negative: " + handshakes);
        }
        this.maxConcurrentHandshakes = handshakes;
        return this;
    }

    /**
     * What a server does with a connection beyond {@link #maxConcurrentHandshakes}: by default
     * {@link TcpConfig.OverLimit#WAIT}, its socket not read until a handshake ends; or
     * {@link TcpConfig.OverLimit#CLOSE}, at once ({@code CloseReason.HANDSHAKE_LIMIT}).
     *
     * @param policy wait or close.
     * @return this.
     */
    public TlsConfig handshakesOverLimit(final TcpConfig.OverLimit policy)
    {
        if (policy == null)
        {
            throw new IllegalArgumentException("handshakesOverLimit must not be null");
        }
        this.handshakesOverLimit = policy;
        return this;
    }

    /**
     * How many renegotiations (TLS 1.2) and key updates or other messages after the handshake (TLS 1.3) a peer
     * may start within an interval; 10 per 60 s by default. One more closes the connection
     * ({@code CloseReason.RENEGOTIATION_LIMIT}): a renegotiation costs a full handshake on the reactor thread.
     *
     * @param count          how many within the interval, at least 1 (a TLS 1.3 client reads its session
     *                       tickets through this bound too).
     * @param intervalMillis the interval.
     * @return this.
     */
    public TlsConfig maxRenegotiations(final int count, final long intervalMillis)
    {
        if (count < 1 || intervalMillis < 1)
        {
            throw new IllegalArgumentException("maxRenegotiations needs a count and an interval of at least 1: " +
                count + " per " + intervalMillis + " ms");
        }
        this.maxRenegotiations = count;
        this.renegotiationIntervalMillis = intervalMillis;
        return this;
    }

    /**
     * Where a handshake runs: every engine call of it, from the engine's creation to the session ticket, with the
     * JDK's delegated tasks, which hold a server's signature and key agreement and a client's certificate checks
     * (a millisecond or more each), and the socket reads and writes between them. By default on pools the
     * process shares (half the available processors each, at least one, of daemon threads), so that a flood of
     * handshakes leaves the reactor thread only the accept and a hand-over and a resume per flight; the
     * connection waits for each step unwatched and resumes on its reactor. That helps the reactor's other
     * connections where the pool's threads run on other CPUs than the reactor's, or on the same CPUs at a lower
     * priority than a reactor that waits in its selector: while no reactor of the process spins, the steps run on
     * threads that drop to nice 19 once warm (1,000 steps each), else at the process's priority, as next to a
     * reactor that never yields they would starve; the system property {@code celer.tls.handshakeNice} (0 to 19)
     * sets one nice value for all instead. The threads start when the first TLS server or client opens, with the
     * CPU affinity of the thread that opens it, so open it from an unpinned thread, or give an executor whose
     * threads run where the reactors do not. On io_uring, whose rings only the reactor thread drives, the steps
     * make engine calls only and the reactor reads and writes the socket between them. Null runs the handshake
     * on the reactor thread, as an executor that refuses a step or runs it at once on the calling thread does:
     * one thread hop fewer per flight. Renegotiations and key updates after the handshake run on the reactor
     * thread either way.
     *
     * @param executor the executor, or null for the reactor thread.
     * @return this.
     */
    public TlsConfig handshakeExecutor(final Executor executor)
    {
        this.handshakeExecutor = executor;
        return this;
    }

    @Override
    public int maxConcurrentHandshakes()
    {
        return maxConcurrentHandshakes;
    }

    @Override
    public TcpConfig.OverLimit handshakesOverLimit()
    {
        return handshakesOverLimit;
    }

    @Override
    public void check()
    {
        context();
        bufferSizes();
        if (handshakeExecutor == SharedHandshakeExecutor.INSTANCE)
        {
            SharedHandshakeExecutor.INSTANCE.start(); // here, on the opening thread, not on a pinned reactor
        }
    }

    @Override
    public Transport newTransport(final boolean clientMode, final String peerHost, final int peerPort)
    {
        int packets = packetSize;
        if (packets == 0)
        {
            bufferSizes(); // a factory that wraps this one may not have checked it
            packets = packetSize;
        }
        // The engine is made by the handshake's first step, on the handshake executor.
        return new TlsTransport(engines, clientMode, peerHost, peerPort, packets, plaintextSize,
            maxRenegotiations, renegotiationIntervalMillis, handshakeExecutor);
    }

    private SSLEngine newEngine(final boolean clientMode, final String peerHost, final int peerPort)
    {
        final String host = clientMode && serverName != null ? serverName : peerHost;
        final SSLEngine engine = host == null ? context().createSSLEngine() : context().createSSLEngine(host, peerPort);
        engine.setUseClientMode(clientMode);
        final SSLParameters parameters = engine.getSSLParameters();
        parameters.setProtocols(protocols.toArray(new String[0]));
        if (cipherSuites != null)
        {
            parameters.setCipherSuites(cipherSuites.toArray(new String[0]));
        }
        if (clientMode)
        {
            if (verifyHostname)
            {
                parameters.setEndpointIdentificationAlgorithm("HTTPS");
            }
            if (serverName != null)
            {
                parameters.setServerNames(List.of(new SNIHostName(serverName)));
            }
        }
        else
        {
            parameters.setNeedClientAuth(clientAuth == ClientAuth.REQUIRED);
            if (clientAuth == ClientAuth.OPTIONAL)
            {
                parameters.setWantClientAuth(true);
            }
        }
        engine.setSSLParameters(parameters);
        return engine;
    }

    private synchronized void bufferSizes()
    {
        if (packetSize == 0)
        {
            final SSLEngine first = newEngine(false, null, -1); // and bad protocols or suites fail here, early
            plaintextSize = first.getSession().getApplicationBufferSize();
            packetSize = first.getSession().getPacketBufferSize();
        }
    }

    private synchronized SSLContext context()
    {
        if (context == null)
        {
            try
            {
                KeyManagerFactory keys = null;
                if (keyStore != null)
                {
                    keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                    keys.init(keyStore.load(), keyStore.password());
                }
                TrustManagerFactory trust = null;
                if (trustStore != null)
                {
                    trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                    trust.init(trustStore.load());
                }
                final SSLContext built = SSLContext.getInstance("TLS");
                built.init(keys == null ? null : keys.getKeyManagers(), trust == null ? null : trust.getTrustManagers(),
                    null);
                context = built;
            }
            catch (final GeneralSecurityException | IOException ex)
            {
                throw new IllegalStateException("cannot set up TLS: " + ex.getMessage(), ex);
            }
        }
        return context;
    }

    /**
     * A key or trust store file, its password and its type.
     */
    private record StoreFile(Path path, char[] password, String type)
    {
        /** A store whose type follows from the file name: JKS for {@code .jks}, PKCS12 otherwise. */
        static StoreFile of(final Path path, final String password)
        {
            final String name = path.getFileName().toString().toLowerCase(Locale.ROOT);
            return new StoreFile(path, password.toCharArray(), name.endsWith(".jks") ? "JKS" : "PKCS12");
        }

        KeyStore load() throws GeneralSecurityException, IOException
        {
            final KeyStore store = KeyStore.getInstance(type);
            try (InputStream in = Files.newInputStream(path))
            {
                store.load(in, password);
            }
            catch (final IOException ex)
            {
                throw new IOException("cannot read " + type + " store " + path + ": " + ex.getMessage(), ex);
            }
            return store;
        }
    }
}
