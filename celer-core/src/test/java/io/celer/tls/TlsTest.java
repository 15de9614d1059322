package io.celer.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import javax.net.ssl.SSLException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.celer.counters.CounterValue;
import io.celer.counters.Counters;
import io.celer.counters.CountersReader;
import io.celer.framing.LineFraming;
import io.celer.tcp.CloseReason;
import io.celer.tcp.Connection;
import io.celer.tcp.TcpClient;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;
import io.celer.test.Await;
import io.celer.test.Reactors;
import io.celer.test.RecordingHandler;
import io.celer.test.TestCertificates;

/**
 * TLS between Celer peers: the handshake, echo, orderly close, and every failure as a clear error.
 */
class TlsTest
{
    private static final TestCertificates CERTS = TestCertificates.get();

    @RegisterExtension
    final Reactors reactors = new Reactors();

    static TlsConfig serverTls(final Path keyStore)
    {
        return new TlsConfig().keyStore(keyStore, TestCertificates.PASSWORD);
    }

    static TlsConfig clientTls()
    {
        return new TlsConfig().trustStore(CERTS.trustStore(), TestCertificates.PASSWORD);
    }

    private TcpServer server(final TlsConfig tls, final RecordingHandler handler)
    {
        return new TcpServer(reactors.start("server"), 0, new TcpConfig().bindAddress("127.0.0.1")
            .framing(() -> new LineFraming(1024)).transport(tls), handler).open();
    }

    private TcpClient client(final String host, final int port, final TlsConfig tls, final RecordingHandler handler)
    {
        return new TcpClient(reactors.start("client"), host, port,
            new TcpConfig().framing(() -> new LineFraming(1024)).transport(tls), handler).open();
    }

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.3", "TLSv1.2"})
    void echoesOverTlsAndClosesInOrder(final String protocol)
    {
        final RecordingHandler server = new RecordingHandler(true);
        final TcpServer tcpServer = server(serverTls(CERTS.server()).protocols(protocol), server);
        final RecordingHandler client = new RecordingHandler()
        {
            @Override
            public void opened(final Connection connection)
            {
                super.opened(connection);
                connection.write("hello");
                connection.write("x".repeat(1000));
                connection.send("world");
            }
        };
        client("localhost", tcpServer.port(), clientTls().protocols(protocol), client);
        assertThat(client.nextMessage()).isEqualTo("hello");
        assertThat(client.nextMessage()).isEqualTo("x".repeat(1000));
        assertThat(client.nextMessage()).isEqualTo("world");

        client.connection.reactor().call(() -> client.connection.close());
        assertThat(server.awaitClosed()).as("close_notify reads as an orderly close").isEqualTo(CloseReason.PEER_CLOSED);
        assertThat(server.errors).isEmpty();
        assertThat(client.errors).isEmpty();
        final CountersReader counters = Counters.process().reader();
        assertThat(counters.sum("client", "tls.alerts.sent", "alert=close_notify")).isEqualTo(1);
        assertThat(counters.sum("server", "tls.alerts.received", "alert=close_notify")).isEqualTo(1);
        assertThat(counters.sum("server", "tls.alerts.sent", "alert=fatal")).isZero();
        assertThat(counters.sum("client", "tls.alerts.sent", "alert=fatal")).isZero();
    }

    @Test
    void carriesMessagesLargerThanATlsRecordAndMoreThanTheBuffersHold()
    {
        final RecordingHandler server = new RecordingHandler(true);
        final TcpServer tcpServer = new TcpServer(reactors.start("server"), 0, new TcpConfig().bindAddress("127.0.0.1")
            .framing(() -> new LineFraming(60_000)).transport(serverTls(CERTS.server())), server).open();
        final String big = "y".repeat(50_000);
        final RecordingHandler client = new RecordingHandler()
        {
            @Override
            public void opened(final Connection connection)
            {
                super.opened(connection);
                connection.send(big);
            }

            @Override
            public void message(final Connection connection, final ByteBuffer message)
            {
                super.message(connection, message);
                if (messages.size() < 20)
                {
                    connection.send(big);
                }
            }
        };
        new TcpClient(reactors.start("client"), "localhost", tcpServer.port(), new TcpConfig()
            .framing(() -> new LineFraming(60_000)).transport(clientTls()), client).open();
        for (int i = 0; i < 20; i++)
        {
            assertThat(client.nextMessage()).isEqualTo(big);
        }
        assertThat(server.errors).isEmpty();
    }

    @Test
    void jksStoresWorkAsPkcs12Ones()
    {
        final RecordingHandler server = new RecordingHandler(true);
        final TcpServer tcpServer = server(new TlsConfig().keyStore(CERTS.serverJks(), TestCertificates.PASSWORD),
            server);
        final RecordingHandler client = RecordingHandler.sendingOnOpen("over JKS");
        client("localhost", tcpServer.port(),
            new TlsConfig().trustStore(CERTS.trustStoreJks(), TestCertificates.PASSWORD), client);
        assertThat(client.nextMessage()).isEqualTo("over JKS");
        final CountersReader counters = Counters.process().reader();
        // The reactors of this test, each alone of its name.
        final String serverScope = "server";
        final String clientScope = "client";
        assertThat(counters.sum(serverScope, "tls.handshakes", "result=done")).isEqualTo(1);
        assertThat(counters.sum(clientScope, "tls.handshakes", "result=done")).isEqualTo(1);
        assertThat(counters.sum(serverScope, "tls.handshakes", "result=failed")).isZero();
    }

    @Test
    void anUntrustedServerIsRefused()
    {
        assertClientRefused(CERTS.untrusted(), "localhost", clientTls(), "PKIX path building failed");
    }

    @Test
    void anExpiredServerCertificateIsRefused()
    {
        assertClientRefused(CERTS.expired(), "localhost", clientTls(), "validity check failed");
    }

    @Test
    void aCertificateForAnotherHostIsRefused()
    {
        assertClientRefused(CERTS.wrongHost(), "localhost", clientTls(), "No subject alternative DNS name matching localhost");
    }

    @Test
    void aClientTrustingTheJdkDefaultsRefusesThePrivateCa()
    {
        assertClientRefused(CERTS.server(), "localhost", new TlsConfig(), "PKIX path building failed");
    }

    @Test
    void noCommonProtocolIsRefused()
    {
        final RecordingHandler server = new RecordingHandler();
        final TcpServer tcpServer = server(serverTls(CERTS.server()).protocols("TLSv1.2"), server);
        final RecordingHandler client = new RecordingHandler();
        client("localhost", tcpServer.port(), clientTls().protocols("TLSv1.3"), client);
        assertThat(client.awaitClosed()).isEqualTo(CloseReason.TLS_ERROR);
        assertThat(server.awaitClosed()).isEqualTo(CloseReason.TLS_ERROR);
        assertThat(server.errors).singleElement().isInstanceOf(SSLException.class);
        assertThat(server.events).doesNotContain("opened");
        final CountersReader counters = Counters.process().reader();
        final String serverScope = "server";
        assertThat(counters.sum(serverScope, "tls.handshakes", "result=failed")).isEqualTo(1);
        assertThat(counters.sum(serverScope, "tls.handshakes.failed", "cause=tls_error")).isEqualTo(1);
        assertThat(counters.sum(serverScope, "tls.handshakes.failed", "cause=timeout")).isZero();
        assertThat(counters.sum(serverScope, "tcp.connections.closed", "reason=tls_error")).isEqualTo(1);
        assertThat(counters.sum(serverScope, "tls.handshakes", "result=done")).isZero();
    }

    @Test
    void aPlaintextClientOnTheTlsPortFailsAloneWhileATlsClientCarriesOn() throws Exception
    {
        final RecordingHandler server = new RecordingHandler(true);
        final TcpServer tcpServer = server(serverTls(CERTS.server()), server);
        final RecordingHandler good = new RecordingHandler();
        final TcpClient goodClient = client("localhost", tcpServer.port(), clientTls(), good);
        good.awaitEvent("opened");

        try (Socket plain = new Socket("127.0.0.1", tcpServer.port()))
        {
            plain.setSoTimeout(10_000);
            plain.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            final InputStream in = plain.getInputStream();
            in.readAllBytes(); // an alert, then the end of the stream
            Await.until("the plaintext client's failure", () -> server.events.contains("closed:TLS_ERROR"));
            assertThat(server.errors).singleElement().isInstanceOf(SSLException.class);
            assertThat(Counters.process().reader().sum("server", "tls.alerts.sent", "alert=fatal")).isEqualTo(1);
        }
        good.connection.reactor().call(() -> good.connection.send("still fine"));
        assertThat(good.nextMessage()).isEqualTo("still fine");
        assertThat(goodClient.isOpen()).isTrue();
    }

    @Test
    void aPeerThatVanishesMidHandshakeOrNeverSpeaksFailsCleanly() throws Exception
    {
        // The vanishing peer's server waits long for a handshake: a test thread that waits for a core between its
        // connect and its write must not turn the vanishing into a timeout.
        final RecordingHandler server = new RecordingHandler();
        final TcpServer tcpServer = new TcpServer(reactors.start("server"), 0, new TcpConfig().bindAddress("127.0.0.1")
            .handshakeTimeoutMillis(Await.DEFAULT.toMillis()).transport(serverTls(CERTS.server())), server);
        tcpServer.open();
        try (Socket vanishing = new Socket("127.0.0.1", tcpServer.port()))
        {
            vanishing.getOutputStream().write(new byte[] {0x16, 0x03, 0x01, 0x00, (byte)0xF0, 0x01}); // half a ClientHello
        }
        Await.until("the vanished peer's failure", () -> server.events.contains("closed:TLS_ERROR"));
        assertThat(server.errors).singleElement().extracting(Throwable::getMessage).asString()
            .contains("closed the connection during the TLS handshake");

        final RecordingHandler impatient = new RecordingHandler();
        final TcpServer impatientServer = new TcpServer(reactors.start("impatient-server"), 0, new TcpConfig()
            .bindAddress("127.0.0.1").handshakeTimeoutMillis(300).transport(serverTls(CERTS.server())), impatient);
        impatientServer.open();
        try (Socket silent = new Socket("127.0.0.1", impatientServer.port()))
        {
            silent.setSoTimeout(10_000);
            Await.until("the silent peer's timeout", () -> impatient.events.contains("closed:TLS_ERROR"));
            assertThat(impatient.errors).singleElement().extracting(Throwable::getMessage).asString()
                .contains("did not complete within 300 ms");
            assertThat(silent.getInputStream().read()).isEqualTo(-1);
        }
        // Both closed as TLS errors; the counters tell the peer that left from the one that ran out of time.
        final CountersReader counters = Counters.process().reader();
        assertThat(counters.sum("server", "tls.handshakes.failed", "cause=tls_error")).isEqualTo(1);
        assertThat(counters.sum("server", "tls.handshakes.failed", "cause=timeout")).isZero();
        assertThat(counters.sum("impatient-server", "tls.handshakes.failed", "cause=timeout")).isEqualTo(1);
        assertThat(counters.sum("impatient-server", "tls.handshakes.failed", "cause=tls_error")).isZero();
        assertThat(counters.sum("impatient-server", "tls.handshakes", "result=failed")).isEqualTo(1);
    }

    @Test
    void aRequiredClientCertificateIsEnforced()
    {
        final RecordingHandler server = new RecordingHandler(true);
        final TcpServer tcpServer = server(serverTls(CERTS.server())
            .trustStore(CERTS.trustStore(), TestCertificates.PASSWORD).clientAuth(ClientAuth.REQUIRED), server);

        // Under TLS 1.3 the client finishes its handshake before the server checks it, so the client may
        // open, then hear the server's alert.
        final RecordingHandler anonymous = new RecordingHandler();
        client("localhost", tcpServer.port(), clientTls(), anonymous);
        assertThat(anonymous.awaitClosed()).isEqualTo(CloseReason.TLS_ERROR);
        assertThat(anonymous.errors).singleElement().extracting(Throwable::getMessage).asString()
            .containsAnyOf("bad_certificate", "certificate_required");
        assertThat(server.awaitClosed()).isEqualTo(CloseReason.TLS_ERROR);
        assertThat(server.events).doesNotContain("opened");

        final RecordingHandler identified = RecordingHandler.sendingOnOpen("with certificate");
        client("localhost", tcpServer.port(), clientTls().keyStore(CERTS.client(), TestCertificates.PASSWORD),
            identified);
        assertThat(identified.nextMessage()).isEqualTo("with certificate");
    }

    @Test
    void aBadKeyStorePasswordFailsWhenTheServerOpens()
    {
        final TcpServer server = new TcpServer(reactors.start("server"), 0, new TcpConfig().bindAddress("127.0.0.1")
            .transport(new TlsConfig().keyStore(CERTS.server(), "wrong")), new RecordingHandler());
        assertThatThrownBy(server::open).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("cannot set up TLS").hasMessageContaining("server.p12");
    }

    private void assertClientRefused(final Path serverKeys, final String host, final TlsConfig clientTls,
        final String why)
    {
        final RecordingHandler server = new RecordingHandler();
        final TcpServer tcpServer = server(serverTls(serverKeys), server);
        final RecordingHandler client = new RecordingHandler();
        client(host, tcpServer.port(), clientTls, client);
        assertThat(client.awaitClosed()).isEqualTo(CloseReason.TLS_ERROR);
        assertThat(client.errors).singleElement().isInstanceOf(SSLException.class)
            .extracting(Throwable::getMessage).asString().contains(why);
        assertThat(client.events).doesNotContain("opened");
        assertThat(server.awaitClosed()).as("the server hears the client's alert").isEqualTo(CloseReason.TLS_ERROR);
        final CountersReader counters = Counters.process().reader();
        assertThat(counters.sum("client", "tls.alerts.sent", "alert=fatal")).isEqualTo(1);
        // The alert's name depends on the JDK and the failure (certificate_unknown, certificate_expired...).
        assertThat(counters.snapshot().stream()
            .filter(v -> v.scope().equals("server") && v.name().equals("tls.alerts.received"))
            .filter(v -> v.tag().matches("alert=[a-z_]+") && !v.tag().equals("alert=close_notify") &&
                !v.tag().equals("alert=other"))
            .mapToLong(CounterValue::value).sum()).as("the client's fatal alert, by its name").isEqualTo(1);
    }
}
