package io.celer.http.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.http.HttpMethod;
import io.celer.http.server.HttpServerConfig;
import io.celer.http.server.TestServer;
import io.celer.tcp.TcpConfig;
import io.celer.test.TestCertificates;
import io.celer.tls.TlsConfig;

/**
 * HTTPS against the Celer server with certificates from a test authority: pipelined requests over TLS, and a
 * client that verifies the chain (the JDK's default trust store when given none) and the host name.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ClientTlsTest
{
    private static final TestCertificates CERTS = TestCertificates.get();

    @RegisterExtension
    final ClientRig rig = new ClientRig();
    private TestServer server;
    private HttpClient client;

    private void start(final Path serverKeys, final TlsConfig clientTls)
    {
        server = rig.add(new TestServer(new HttpServerConfig().tcp(new TcpConfig()
            .transport(new TlsConfig().keyStore(serverKeys, TestCertificates.PASSWORD)))));
        client = rig.client(rig.reactor("https-client"),
            new HttpClientConfig().connectionsPerHost(1).tcp(new TcpConfig().transport(clientTls)),
            "localhost:" + server.port());
    }

    private static TlsConfig trustingTheTestAuthority()
    {
        return new TlsConfig().trustStore(CERTS.trustStore(), TestCertificates.PASSWORD);
    }

    private String failureOfOneGet()
    {
        final Outcomes outcomes = new Outcomes();
        client.reactor().execute(() -> client.request(HttpMethod.GET, "/ok").tag(1).send(outcomes));
        final String line = outcomes.await(1).get(0);
        final List<String> causes = new ArrayList<>();
        for (Throwable t = outcomes.failures().isEmpty() ? null : outcomes.failures().get(0); t != null;
            t = t.getCause())
        {
            causes.add(String.valueOf(t.getMessage()));
        }
        return line + " | " + String.join(" | ", causes);
    }

    @Test
    void pipelinesRequestsOverTls()
    {
        start(CERTS.server(), trustingTheTestAuthority());
        final Outcomes outcomes = new Outcomes();
        final int count = 50;
        client.reactor().execute(() ->
        {
            for (int i = 0; i < count; i++)
            {
                client.request(i % 2 == 0 ? HttpMethod.GET : HttpMethod.POST, i % 2 == 0 ? "/plaintext" : "/echo")
                    .tag(i).body(i % 2 == 0 ? "" : "posted " + i).send(outcomes);
            }
        });
        final List<String> lines = outcomes.await(count);
        for (int i = 0; i < count; i++)
        {
            assertThat(lines.get(i)).isEqualTo(i + " 200 " + (i % 2 == 0 ? "Hello, World!" : "posted " + i));
        }
    }

    @Test
    void aCertificateForAnotherHostIsRefused()
    {
        start(CERTS.wrongHost(), trustingTheTestAuthority());
        assertThat(failureOfOneGet()).startsWith("1 FAILED CONNECT_FAILED")
            .contains("No subject alternative DNS name matching localhost");
    }

    @Test
    void withoutATrustStoreTheJdkDefaultsRefuseThePrivateAuthority()
    {
        start(CERTS.server(), new TlsConfig());
        assertThat(failureOfOneGet()).startsWith("1 FAILED CONNECT_FAILED").contains("PKIX path building failed");
    }
}
