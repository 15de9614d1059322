package io.celer.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import javax.net.ssl.HttpsURLConnection;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.celer.framing.LineFraming;
import io.celer.tcp.CloseReason;
import io.celer.tcp.Connection;
import io.celer.tcp.Handler;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;
import io.celer.test.Await;
import io.celer.test.Reactors;
import io.celer.test.TestCertificates;
import io.celer.test.Transports;

/**
 * The JDK's own HTTPS clients, {@link HttpsURLConnection} and {@link HttpClient}, against a Celer TLS server
 * that answers one minimal HTTP/1.1 request; each client trusts the test CA only and checks the host name.
 */
class JdkHttpsInteropTest
{
    private static final String BODY = "hello over TLS";
    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    @RegisterExtension
    final Reactors reactors = new Reactors();

    /**
     * Reads header lines until the empty one, then answers {@code 200 OK} with a short body and closes.
     */
    private static final class OneRequest implements Handler
    {
        final List<String> requestLines = new CopyOnWriteArrayList<>();
        final List<CloseReason> closes = new CopyOnWriteArrayList<>();
        final List<Throwable> errors = new CopyOnWriteArrayList<>();

        @Override
        public void message(final Connection connection, final ByteBuffer line)
        {
            if (line.hasRemaining())
            {
                requestLines.add(StandardCharsets.ISO_8859_1.decode(line).toString());
                return;
            }
            connection.write("HTTP/1.1 200 OK");
            connection.write("Content-Type: text/plain; charset=US-ASCII");
            connection.write("Content-Length: " + (BODY.length() + 2));
            connection.write("Connection: close");
            connection.write("");
            connection.write(BODY); // the framing ends it with CRLF, counted above
            connection.close();
        }

        @Override
        public void closed(final Connection connection, final CloseReason reason)
        {
            closes.add(reason);
        }

        @Override
        public void error(final Connection connection, final Throwable error)
        {
            errors.add(error);
        }
    }

    private TcpServer server(final String protocol, final OneRequest handler)
    {
        return new TcpServer(reactors.start("server"), 0, new TcpConfig().bindAddress("127.0.0.1")
            .framing(() -> new LineFraming(8192, true))
            .transport(TlsTest.serverTls(TestCertificates.get().server()).protocols(protocol)), handler).open();
    }

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.3", "TLSv1.2"})
    void httpsUrlConnectionGetsTheAnswer(final String protocol) throws Exception
    {
        final OneRequest handler = new OneRequest();
        final TcpServer server = server(protocol, handler);

        final HttpsURLConnection connection = (HttpsURLConnection)URI.create(
            "https://localhost:" + server.port() + "/hello").toURL().openConnection();
        connection.setSSLSocketFactory(Transports.clientContext().getSocketFactory());
        connection.setConnectTimeout((int)TIMEOUT.toMillis());
        connection.setReadTimeout((int)TIMEOUT.toMillis());
        try
        {
            assertThat(connection.getResponseCode()).isEqualTo(200);
            assertThat(connection.getHeaderField("Content-Type")).isEqualTo("text/plain; charset=US-ASCII");
            try (InputStream body = connection.getInputStream())
            {
                assertThat(new String(body.readAllBytes(), StandardCharsets.US_ASCII)).isEqualTo(BODY + "\r\n");
            }
        }
        finally
        {
            connection.disconnect();
        }
        assertAnswered(handler, server.port());
    }

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.3", "TLSv1.2"})
    void httpClientGetsTheAnswer(final String protocol) throws Exception
    {
        final OneRequest handler = new OneRequest();
        final TcpServer server = server(protocol, handler);

        final HttpClient client = HttpClient.newBuilder()
            .sslContext(Transports.clientContext())
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(TIMEOUT)
            .build();
        final HttpRequest request = HttpRequest.newBuilder(URI.create("https://localhost:" + server.port() + "/hello"))
            .timeout(TIMEOUT).build();
        final HttpResponse<String> response =
            client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.US_ASCII));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo(BODY + "\r\n");
        assertThat(response.sslSession()).get().extracting(session -> session.getProtocol()).isEqualTo(protocol);
        assertAnswered(handler, server.port());
    }

    private static void assertAnswered(final OneRequest handler, final int port)
    {
        Await.until("the server's close", () -> !handler.closes.isEmpty());
        assertThat(handler.requestLines.get(0)).isEqualTo("GET /hello HTTP/1.1");
        assertThat(handler.requestLines).contains("Host: localhost:" + port);
        assertThat(handler.closes).containsExactly(CloseReason.LOCAL_CLOSE);
        assertThat(handler.errors).isEmpty();
    }
}
