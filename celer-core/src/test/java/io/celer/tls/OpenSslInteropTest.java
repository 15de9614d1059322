package io.celer.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Duration;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.celer.framing.LineFraming;
import io.celer.tcp.CloseReason;
import io.celer.tcp.Connection;
import io.celer.tcp.TcpClient;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;
import io.celer.test.OpenSsl;
import io.celer.test.Reactors;
import io.celer.test.RecordingHandler;
import io.celer.test.TestCertificates;

/**
 * Celer's TLS against a real, independent TLS stack: a Celer client with {@code openssl s_server}, and
 * {@code openssl s_client} with a Celer server, each checking the other's certificates. Skipped when openssl
 * is not installed.
 */
class OpenSslInteropTest
{
    private static final int MAX_LINE = 60_000;
    private static final Duration EXIT = Duration.ofSeconds(20);

    @RegisterExtension
    final Reactors reactors = new Reactors();
    private TestCertificates certs;

    @BeforeEach
    void needsOpenSsl()
    {
        OpenSsl.assumeInstalled();
        certs = TestCertificates.get();
    }

    private static String reversed(final String text)
    {
        return new StringBuilder(text).reverse().toString();
    }

    private static String protocolOption(final String protocol)
    {
        return protocol.equals("TLSv1.3") ? "-tls1_3" : "-tls1_2";
    }

    private static String nextMessage(final RecordingHandler handler, final OpenSsl peer)
    {
        try
        {
            return handler.nextMessage();
        }
        catch (final AssertionError ex)
        {
            throw new AssertionError(ex.getMessage() + "; openssl printed " + peer.output(), ex);
        }
    }

    private TcpClient celerClient(final int port, final TlsConfig tls, final RecordingHandler handler)
    {
        return new TcpClient(reactors.start("client"), "localhost", port,
            new TcpConfig().framing(() -> new LineFraming(MAX_LINE)).transport(tls), handler).open();
    }

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.3", "TLSv1.2"})
    void aCelerClientTalksToOpenSslServer(final String protocol) throws Exception
    {
        final String longLine = "0123456789abcdef".repeat(1_000); // one TLS record of 16 KiB, and then some
        try (OpenSsl server = OpenSsl.server("-cert", certs.serverPem().toString(), "-rev", protocolOption(protocol)))
        {
            final RecordingHandler client = new RecordingHandler()
            {
                @Override
                public void opened(final Connection connection)
                {
                    super.opened(connection);
                    connection.send("hello openssl");
                }

                private boolean first = true;

                @Override
                public void message(final Connection connection, final ByteBuffer message)
                {
                    super.message(connection, message);
                    if (first)
                    {
                        first = false;
                        connection.send(longLine);
                    }
                }
            };
            celerClient(server.port(), TlsTest.clientTls().protocols(protocol), client);
            assertThat(nextMessage(client, server)).isEqualTo(reversed("hello openssl"));
            assertThat(nextMessage(client, server)).isEqualTo(reversed(longLine));
            server.awaitLine("Protocol version: " + protocol);

            client.connection.reactor().call(() -> client.connection.close());
            assertThat(client.awaitClosed()).isEqualTo(CloseReason.LOCAL_CLOSE);
            server.awaitLine("CONNECTION CLOSED");
            assertThat(client.errors).isEmpty();
        }
    }

    @Test
    void aCelerClientShowsItsCertificateToAnOpenSslServerThatRequiresOne() throws Exception
    {
        try (OpenSsl server = OpenSsl.server("-cert", certs.serverPem().toString(), "-rev",
            "-Verify", "2", "-CAfile", certs.caPem().toString(), "-verify_return_error"))
        {
            final RecordingHandler anonymous = new RecordingHandler();
            celerClient(server.port(), TlsTest.clientTls().protocols("TLSv1.2"), anonymous);
            assertThat(anonymous.awaitClosed()).isEqualTo(CloseReason.TLS_ERROR);
            assertThat(anonymous.events).doesNotContain("opened");

            final RecordingHandler identified = RecordingHandler.sendingOnOpen("with a certificate");
            celerClient(server.port(), TlsTest.clientTls().keyStore(certs.client(), TestCertificates.PASSWORD),
                identified);
            assertThat(nextMessage(identified, server)).isEqualTo(reversed("with a certificate"));
            assertThat(identified.errors).isEmpty();
        }
    }

    /**
     * A line server that echoes, and closes when told {@code bye}.
     */
    private static final class LineEcho extends RecordingHandler
    {
        @Override
        public void message(final Connection connection, final ByteBuffer message)
        {
            final int start = message.position();
            super.message(connection, message);
            message.position(start);
            if (message.remaining() == 3 && message.get(start) == 'b')
            {
                connection.close();
            }
            else
            {
                connection.send(message);
            }
        }
    }

    private TcpServer celerServer(final TlsConfig tls, final RecordingHandler handler)
    {
        return new TcpServer(reactors.start("server"), 0, new TcpConfig().bindAddress("127.0.0.1")
            .framing(() -> new LineFraming(MAX_LINE)).transport(tls), handler).open();
    }

    private OpenSsl verifyingClient(final int port, final String... more) throws Exception
    {
        final String[] options = {"-connect", "127.0.0.1:" + port, "-servername", "localhost",
            "-verify_hostname", "localhost", "-CAfile", certs.caPem().toString(), "-verify_return_error"};
        final String[] all = new String[options.length + more.length];
        System.arraycopy(options, 0, all, 0, options.length);
        System.arraycopy(more, 0, all, options.length, more.length);
        return OpenSsl.client(all);
    }

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.3", "TLSv1.2"})
    void openSslClientTalksToACelerServer(final String protocol) throws Exception
    {
        final LineEcho echo = new LineEcho();
        final TcpServer server = celerServer(TlsTest.serverTls(certs.server()).protocols(protocol), echo);
        final String longLine = "z".repeat(50_000);
        try (OpenSsl client = verifyingClient(server.port(), "-quiet", protocolOption(protocol)))
        {
            client.send("hello celer\n");
            client.awaitLine("hello celer");
            client.send(longLine + "\n");
            client.awaitLine(longLine);
            client.send("bye\n");
            assertThat(client.awaitExit(EXIT)).as("s_client's exit value after the server's close_notify").isZero();
        }
        assertThat(echo.awaitClosed()).isEqualTo(CloseReason.LOCAL_CLOSE);
        assertThat(echo.messages).containsExactly("hello celer", longLine, "bye");
        assertThat(echo.errors).isEmpty();
    }

    @Test
    void openSslClientRefusesACelerServerWithACertificateForAnotherHost() throws Exception
    {
        final RecordingHandler handler = new RecordingHandler();
        final TcpServer server = celerServer(TlsTest.serverTls(certs.wrongHost()), handler);
        try (OpenSsl client = verifyingClient(server.port(), "-quiet"))
        {
            assertThat(client.awaitExit(EXIT)).isNotZero();
            assertThat(client.output()).anyMatch(line -> line.contains("hostname mismatch"));
        }
        assertThat(handler.awaitClosed()).as("the server hears the client's alert").isEqualTo(CloseReason.TLS_ERROR);
        assertThat(handler.events).doesNotContain("opened");
    }

    @Test
    void keyUpdatesFromOpenSslAreAnsweredAndTheStreamGoesOn() throws Exception
    {
        final LineEcho echo = new LineEcho();
        final TcpServer server = celerServer(TlsTest.serverTls(certs.server()), echo);
        // Interactive s_client (no -quiet) treats a line "K" as: send a KeyUpdate and ask for one back; "k" as:
        // send one. -msg prints each protocol message, so the server's own KeyUpdate shows.
        try (OpenSsl client = verifyingClient(server.port(), "-tls1_3", "-msg"))
        {
            client.send("before\n");
            client.awaitLine("before");
            int updates = 0;
            for (int i = 0; i < 3; i++)
            {
                // s_client takes a command from a whole read of its input: the next line waits until it acted.
                client.send("K\n");
                awaitKeyUpdates(client, ++updates);
                client.send("after K " + i + "\n");
                client.awaitLine("after K " + i);
                client.send("k\n");
                awaitKeyUpdates(client, ++updates);
                client.send("after k " + i + "\n");
                client.awaitLine("after k " + i);
            }
            assertThat(client.output().stream().filter("KEYUPDATE"::equals).count()).isEqualTo(6);
            assertThat(client.output().stream()
                .filter(line -> line.startsWith("<<< TLS 1.3, Handshake") && line.endsWith("KeyUpdate")).count())
                .as("the server's KeyUpdates, one for each requested").isEqualTo(3);
            client.closeInput(); // end of input: s_client says close_notify and exits
            assertThat(client.awaitExit(EXIT)).isZero();
        }
        assertThat(echo.awaitClosed()).isEqualTo(CloseReason.PEER_CLOSED);
        assertThat(echo.errors).isEmpty();
        assertThat(echo.messages).containsExactly("before", "after K 0", "after k 0", "after K 1", "after k 1",
            "after K 2", "after k 2");
    }

    private static void awaitKeyUpdates(final OpenSsl client, final int count)
    {
        client.awaitLine(count + " key updates sent",
            line -> client.output().stream().filter("KEYUPDATE"::equals).count() >= count, EXIT);
    }

    @Test
    void aTls12RenegotiationAskedByOpenSslClientIsCarriedThrough() throws Exception
    {
        final LineEcho echo = new LineEcho();
        final TcpServer server = celerServer(TlsTest.serverTls(certs.server()), echo);
        try (OpenSsl client = verifyingClient(server.port(), "-tls1_2"))
        {
            client.send("before\n");
            client.awaitLine("before");
            client.send("R\n");
            client.awaitLine("RENEGOTIATING");
            client.awaitLine("renegotiated and verified again", line -> client.output().stream()
                .filter("verify return:1"::equals).count() == 4, EXIT);
            client.send("after\n");
            client.awaitLine("after");
            client.closeInput();
            assertThat(client.awaitExit(EXIT)).isZero();
        }
        assertThat(echo.awaitClosed()).isEqualTo(CloseReason.PEER_CLOSED);
        assertThat(echo.errors).isEmpty();
        assertThat(echo.messages).containsExactly("before", "after");
    }

    /**
     * An s_server that takes commands on its input, with the number of commands it carried out.
     */
    private static void awaitCommands(final OpenSsl server, final int count)
    {
        server.awaitLine(count + " commands carried out", line -> server.output().stream()
            .filter(done -> done.startsWith("SSL_do_handshake -> 1")).count() >= count, EXIT);
    }

    /**
     * A Celer client of an s_server, opened, with a first line through each way.
     */
    private RecordingHandler pingedClient(final OpenSsl server) throws Exception
    {
        final RecordingHandler client = new RecordingHandler(true);
        celerClient(server.port(), TlsTest.clientTls(), client);
        client.awaitEvent("opened");
        server.send("ping 0\n");
        assertThat(nextMessage(client, server)).isEqualTo("ping 0");
        server.awaitLine("ping 0");
        return client;
    }

    @Test
    void keyUpdatesFromOpenSslServerAreAnsweredByACelerClient() throws Exception
    {
        try (OpenSsl server = OpenSsl.server("-cert", certs.serverPem().toString(), "-tls1_3", "-msg"))
        {
            final RecordingHandler client = pingedClient(server);
            // s_server sends what it reads on its input; a line "K" or "k" is a key update command instead.
            for (int i = 1; i <= 4; i++)
            {
                server.send(i % 2 == 1 ? "K\n" : "k\n");
                final int sent = i;
                server.awaitLine(i + " key updates sent", line -> server.output().stream()
                    .filter(out -> out.startsWith(">>> TLS 1.3, Handshake") && out.endsWith("KeyUpdate"))
                    .count() >= sent, EXIT);
                server.send("ping " + i + "\n");
                assertThat(nextMessage(client, server)).isEqualTo("ping " + i);
                server.awaitLine("ping " + i);
            }
            assertThat(server.output().stream()
                .filter(line -> line.startsWith("<<< TLS 1.3, Handshake") && line.endsWith("KeyUpdate")).count())
                .as("the client's KeyUpdates, one for each requested").isEqualTo(2);
            assertThat(client.errors).isEmpty();
            assertThat(client.events).containsExactly("opened");
        }
    }

    @Test
    void aTls12RenegotiationAskedByOpenSslServerIsCarriedThroughByACelerClient() throws Exception
    {
        try (OpenSsl server = OpenSsl.server("-cert", certs.serverPem().toString(), "-tls1_2", "-msg"))
        {
            final RecordingHandler client = pingedClient(server);
            server.send("r\n"); // a HelloRequest: the client starts a new handshake
            awaitCommands(server, 1);
            // The JDK sends application records in the middle of a renegotiation, which OpenSSL refuses
            // ("unexpected record"): the next line waits until the client's second Finished arrived.
            server.awaitLine("the renegotiation's end", line -> server.output().stream()
                .filter(out -> out.startsWith("<<< TLS 1.2, Handshake") && out.endsWith("Finished"))
                .count() == 2, EXIT);
            server.send("ping 1\n");
            assertThat(nextMessage(client, server)).isEqualTo("ping 1");
            server.awaitLine("ping 1");
            assertThat(client.errors).isEmpty();
        }
    }

    @Test
    void plaintextFromOpenSslServerInTheMiddleOfTheStreamIsATlsError() throws Exception
    {
        try (OpenSsl server = OpenSsl.server("-cert", certs.serverPem().toString()))
        {
            final RecordingHandler client = new RecordingHandler(true);
            celerClient(server.port(), TlsTest.clientTls(), client);
            client.awaitEvent("opened");
            server.send("ping\n");
            assertThat(nextMessage(client, server)).isEqualTo("ping");
            server.send("P\n"); // s_server writes a line of clear text to the socket, under TLS
            assertThat(client.awaitClosed()).isEqualTo(CloseReason.TLS_ERROR);
            assertThat(client.errors).singleElement().isInstanceOf(javax.net.ssl.SSLException.class);
        }
    }

}
