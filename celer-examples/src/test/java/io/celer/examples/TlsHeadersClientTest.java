package io.celer.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import javax.net.ssl.SSLException;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.examples.support.Loopback;
import io.celer.tcp.CloseReason;
import io.celer.test.OpenSsl;
import io.celer.test.TestCertificates;
import io.celer.tls.TlsConfig;

/**
 * The TLS headers client against {@code openssl s_server -www}, a real HTTPS server on loopback; skipped when
 * openssl is not installed.
 */
class TlsHeadersClientTest
{
    private static final Duration DONE = Duration.ofSeconds(30);

    @RegisterExtension
    final Loopback loopback = new Loopback();
    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(printed, true, StandardCharsets.ISO_8859_1);
    private TestCertificates certs;

    @BeforeEach
    void needsOpenSsl()
    {
        OpenSsl.assumeInstalled();
        certs = TestCertificates.get();
    }

    @Test
    void printsTheResponseHeadersAndClosesAtTheEmptyLine() throws Exception
    {
        try (OpenSsl server = OpenSsl.server("-cert", certs.serverPem().toString(), "-www"))
        {
            final TlsHeadersClient client = new TlsHeadersClient(loopback.reactor("tls-headers"), "localhost",
                server.port(), new TlsConfig().trustStore(certs.trustStore(), TestCertificates.PASSWORD), out).open();

            assertThat(client.outcome().awaitDone(DONE)).as("done").isTrue();
            assertThat(client.outcome().failure()).isNull();
            assertThat(client.outcome().closeReason()).as("closed by the client at the end of the headers")
                .isEqualTo(CloseReason.LOCAL_CLOSE);
            assertThat(client.headers()).containsExactly("HTTP/1.0 200 ok", "Content-type: text/html");
            assertThat(printed.toString(StandardCharsets.ISO_8859_1))
                .isEqualTo("HTTP/1.0 200 ok" + System.lineSeparator() + "Content-type: text/html" +
                System.lineSeparator());
        }
    }

    @Test
    void refusesAServerTheJdkTrustStoreDoesNotVouchFor() throws Exception
    {
        try (OpenSsl server = OpenSsl.server("-cert", certs.serverPem().toString(), "-www"))
        {
            // The JDK's default trust store: the test CA is in none, and nothing is trusted unchecked.
            final TlsHeadersClient client =
                new TlsHeadersClient(loopback.reactor("tls-headers"), "localhost", server.port(), new TlsConfig(), out)
                .open();

            assertThat(client.outcome().awaitDone(DONE)).as("done").isTrue();
            assertThat(client.outcome().closeReason()).isEqualTo(CloseReason.TLS_ERROR);
            assertThat(client.outcome().failure()).isInstanceOf(SSLException.class).hasMessageContaining("PKIX");
            assertThat(client.headers()).isEmpty();
            assertThat(printed.size()).isZero();
        }
    }
}
