package io.celer.tls;

import static io.celer.test.Sockets.ask;
import static io.celer.test.Sockets.lineReader;
import static io.celer.test.Sockets.sendLine;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.X509ExtendedKeyManager;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.framing.LineFraming;
import io.celer.reactor.Reactor;
import io.celer.tcp.CloseReason;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;
import io.celer.tcp.TransportFactory;
import io.celer.test.Await;
import io.celer.test.Reactors;
import io.celer.test.RecordingHandler;
import io.celer.test.TestCertificates;
import io.celer.test.Transports;

/**
 * Where a TLS server's handshake work runs ({@link TlsConfig#handshakeExecutor}): off the reactor thread by
 * default, so that a handshake whose signature takes long (a key in a remote signer, a slow machine, a flood) does
 * not hold back the plain connections on the same reactor. The server's key is reached through a key manager
 * that can hold the signing handshake until the test lets it go, and that notes the thread it ran on.
 */
class TlsHandshakeExecutorTest
{
    private static final int TIMEOUT_MILLIS = 30_000;
    /** How long a plain round trip may take while a handshake is held: it takes microseconds when served. */
    private static final int PLAIN_TIMEOUT_MILLIS = 5_000;

    @RegisterExtension
    final Reactors reactors = new Reactors();

    /** The test server's key manager, held at its private key until released. */
    private static final class HeldKeys extends X509ExtendedKeyManager
    {
        final X509ExtendedKeyManager keys;
        final CountDownLatch signing = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicReference<Thread> signer = new AtomicReference<>();

        HeldKeys() throws Exception
        {
            final KeyStore store = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(TestCertificates.get().server()))
            {
                store.load(in, TestCertificates.PASSWORD.toCharArray());
            }
            final KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            factory.init(store, TestCertificates.PASSWORD.toCharArray());
            this.keys = (X509ExtendedKeyManager)factory.getKeyManagers()[0];
        }

        HeldKeys released()
        {
            release.countDown();
            return this;
        }

        SSLContext context() throws Exception
        {
            final SSLContext context = SSLContext.getInstance("TLS");
            context.init(new javax.net.ssl.KeyManager[] {this}, null, null);
            return context;
        }

        @Override
        public PrivateKey getPrivateKey(final String alias)
        {
            signer.compareAndSet(null, Thread.currentThread());
            signing.countDown();
            try
            {
                release.await(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            return keys.getPrivateKey(alias);
        }

        @Override
        public String chooseEngineServerAlias(final String keyType, final Principal[] issuers, final SSLEngine engine)
        {
            return keys.chooseEngineServerAlias(keyType, issuers, engine);
        }

        @Override
        public String chooseServerAlias(final String keyType, final Principal[] issuers, final Socket socket)
        {
            return keys.chooseServerAlias(keyType, issuers, socket);
        }

        @Override
        public X509Certificate[] getCertificateChain(final String alias)
        {
            return keys.getCertificateChain(alias);
        }

        @Override
        public String[] getServerAliases(final String keyType, final Principal[] issuers)
        {
            return keys.getServerAliases(keyType, issuers);
        }

        @Override
        public String[] getClientAliases(final String keyType, final Principal[] issuers)
        {
            return keys.getClientAliases(keyType, issuers);
        }

        @Override
        public String chooseClientAlias(final String[] keyType, final Principal[] issuers, final Socket socket)
        {
            return keys.chooseClientAlias(keyType, issuers, socket);
        }
    }

    /** A client on its own thread that shakes hands and sends a line; what came back, once it ends. */
    private static final class TlsClient extends Thread
    {
        final int port;
        final AtomicReference<Object> result = new AtomicReference<>();

        TlsClient(final int port)
        {
            super("tls-client");
            this.port = port;
            setDaemon(true);
            start();
        }

        @Override
        public void run()
        {
            try (Socket tls = Transports.TLS.over(connect(port)))
            {
                sendLine(tls, "after the handshake");
                result.set(lineReader(tls).readLine());
            }
            catch (final IOException ex)
            {
                result.set(ex);
            }
        }

        Object awaitResult() throws InterruptedException
        {
            join(TIMEOUT_MILLIS);
            return result.get();
        }
    }

    private static TcpServer server(final Reactor reactor, final TransportFactory transport)
    {
        return new TcpServer(reactor, 0, new TcpConfig().bindAddress("127.0.0.1")
            .framing(() -> new LineFraming(1024)).transport(transport), new RecordingHandler(true)).open();
    }

    private static Socket connect(final int port) throws IOException
    {
        final Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), TIMEOUT_MILLIS);
        socket.setSoTimeout(TIMEOUT_MILLIS);
        socket.setTcpNoDelay(true);
        return socket;
    }

    @Test
    void aPlainClientIsServedWhileAHandshakeOnTheSameReactorWaitsForItsSignature() throws Exception
    {
        final Reactor reactor = reactors.start("server");
        final HeldKeys keys = new HeldKeys();
        try
        {
            plainServedWhileHeld(reactor, new TlsConfig().sslContext(keys.context()), () -> { }, keys.signing,
                keys.signer, keys.release);
        }
        finally
        {
            keys.release.countDown();
        }
    }

    @Test
    void aPlainClientIsServedWhileAHandshakesEngineIsMade() throws Exception
    {
        final Reactor reactor = reactors.start("server");
        final HeldEngines engines = new HeldEngines(new HeldKeys().released().context());
        try
        {
            final TlsConfig tls = new TlsConfig().sslContext(engines.context());
            plainServedWhileHeld(reactor, tls, () -> engines.arm(HeldEngines.Point.CREATION), engines.holding,
                engines.held, engines.release);
        }
        finally
        {
            engines.release.countDown();
        }
    }

    @Test
    void aPlainClientIsServedWhileAHandshakeUnwrapsTheClientsFinished() throws Exception
    {
        final Reactor reactor = reactors.start("server");
        final HeldEngines engines = new HeldEngines(new HeldKeys().released().context());
        try
        {
            final TlsConfig tls = new TlsConfig().sslContext(engines.context());
            plainServedWhileHeld(reactor, tls, () -> engines.arm(HeldEngines.Point.SECOND_FLIGHT_UNWRAP),
                engines.holding, engines.held, engines.release);
        }
        finally
        {
            engines.release.countDown();
        }
    }

    @Test
    void anEngineThatCannotBeMadeFailsItsHandshakeAsATlsErrorAndTheServerGoesOn() throws Exception
    {
        final Reactor reactor = reactors.start("server");
        final HeldEngines engines = new HeldEngines(new HeldKeys().released().context());
        final RecordingHandler handler = new RecordingHandler(true);
        final TcpServer tls = new TcpServer(reactor, 0, new TcpConfig().bindAddress("127.0.0.1")
            .framing(() -> new LineFraming(1024)).transport(new TlsConfig().sslContext(engines.context())), handler)
            .open();
        engines.failNextCreation();
        assertThat(new TlsClient(tls.port()).awaitResult()).isInstanceOf(IOException.class);
        assertThat(handler.awaitClosed()).isEqualTo(CloseReason.TLS_ERROR);
        assertThat(handler.errors).singleElement().satisfies(error ->
            assertThat(error).isInstanceOf(SSLHandshakeException.class).hasRootCauseMessage("no engine today"));
        assertThat(new TlsClient(tls.port()).awaitResult()).isEqualTo("after the handshake");
    }

    /**
     * A TLS server and a plain one on the reactor: while a TLS client's handshake is held at some engine call, the
     * plain client's round trips are served, the held call is not on the reactor thread, and once let go the
     * handshake completes.
     *
     * @param arm what makes the next handshake hold, once the servers are open (opening makes an engine).
     */
    private static void plainServedWhileHeld(final Reactor reactor, final TlsConfig tls, final Runnable arm,
        final CountDownLatch holding, final AtomicReference<Thread> held, final CountDownLatch release)
        throws Exception
    {
        final TcpServer tlsServer = server(reactor, tls);
        final TcpServer plain = server(reactor, TransportFactory.plain());
        arm.run();
        try (Socket plainClient = connect(plain.port()))
        {
            final TlsClient tlsClient = new TlsClient(tlsServer.port());
            assertThat(holding.await(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)).as("the handshake held").isTrue();
            for (int i = 0; i < 100; i++)
            {
                assertThat(ask(plainClient, "ping " + i, PLAIN_TIMEOUT_MILLIS)).as("plain round trip " + i +
                    " while the handshake is held").isEqualTo("ping " + i);
            }
            assertThat(held.get().getName()).as("the thread held").startsWith("celer-tls-handshake");

            release.countDown();
            assertThat(tlsClient.awaitResult()).isEqualTo("after the handshake");
        }
    }

    @Test
    void withoutAnExecutorTheHandshakeWorkRunsOnTheReactorThread() throws Exception
    {
        final Reactor reactor = reactors.start("server");
        final HeldKeys keys = new HeldKeys().released();
        final TcpServer tls = server(reactor, new TlsConfig().sslContext(keys.context()).handshakeExecutor(null));
        assertThat(new TlsClient(tls.port()).awaitResult()).isEqualTo("after the handshake");
        assertThat(keys.signer.get()).isSameAs(reactor.thread());
    }

    @Test
    void anExecutorOfTheApplicationsRunsTheHandshakeWork() throws Exception
    {
        final Reactor reactor = reactors.start("server");
        final HeldKeys keys = new HeldKeys().released();
        final AtomicInteger batches = new AtomicInteger();
        final Executor executor = task -> new Thread(() ->
        {
            batches.incrementAndGet();
            task.run();
        }, "handshake-work").start();
        final TcpServer tls = server(reactor, new TlsConfig().sslContext(keys.context()).handshakeExecutor(executor));
        assertThat(new TlsClient(tls.port()).awaitResult()).isEqualTo("after the handshake");
        assertThat(keys.signer.get().getName()).isEqualTo("handshake-work");
        assertThat(batches.get()).as("batches of tasks handed over").isPositive();
    }

    @Test
    void anExecutorThatRunsTasksInPlaceRunsThemOnTheReactorThread() throws Exception
    {
        final Reactor reactor = reactors.start("server");
        final HeldKeys keys = new HeldKeys().released();
        final TcpServer tls = server(reactor,
            new TlsConfig().sslContext(keys.context()).handshakeExecutor(Runnable::run));
        assertThat(new TlsClient(tls.port()).awaitResult()).isEqualTo("after the handshake");
        assertThat(keys.signer.get()).isSameAs(reactor.thread());
    }

    @Test
    void tasksAnExecutorRefusesRunOnTheReactorThread() throws Exception
    {
        final Reactor reactor = reactors.start("server");
        final HeldKeys keys = new HeldKeys().released();
        final Executor refusing = task ->
        {
            throw new RejectedExecutionException("shut down");
        };
        final TcpServer tls = server(reactor, new TlsConfig().sslContext(keys.context()).handshakeExecutor(refusing));
        assertThat(new TlsClient(tls.port()).awaitResult()).isEqualTo("after the handshake");
        assertThat(keys.signer.get()).isSameAs(reactor.thread());
    }

    @Test
    void aHandshakeThatTimesOutWhileItsWorkRunsClosesAndTheLateWorkDoesNoHarm() throws Exception
    {
        final Reactor reactor = reactors.start("server");
        final HeldKeys keys = new HeldKeys();
        final RecordingHandler handler = new RecordingHandler(true);
        final TcpServer tls = new TcpServer(reactor, 0, new TcpConfig().bindAddress("127.0.0.1")
            .handshakeTimeoutMillis(2_000).framing(() -> new LineFraming(1024))
            .transport(new TlsConfig().sslContext(keys.context()).maxConcurrentHandshakes(1)), handler).open();
        try
        {
            final TlsClient held = new TlsClient(tls.port());
            assertThat(keys.signing.await(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)).isTrue();
            assertThat(held.awaitResult()).as("the held client, closed at the timeout").isInstanceOf(IOException.class);
            Await.until("the timed-out connection gone", () -> tls.connectionCount() == 0);
        }
        finally
        {
            keys.release.countDown();
        }
        // The held task ends after its connection closed; the server goes on shaking hands, its one slot free.
        assertThat(new TlsClient(tls.port()).awaitResult()).isEqualTo("after the handshake");
    }
}
