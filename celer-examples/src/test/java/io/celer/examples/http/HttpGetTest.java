package io.celer.examples.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.examples.Demo;
import io.celer.examples.cli.Running;
import io.celer.examples.support.DemoRuns;
import io.celer.examples.support.Loopback;
import io.celer.test.TestCertificates;

/**
 * {@code ./celer demo http-get} against the http-hello demo, plain and over TLS with certificate checks, and
 * against a port where nothing listens: what it prints and its exit code.
 */
class HttpGetTest
{
    @RegisterExtension
    final DemoRuns demos = new DemoRuns(Demo::execute);

    private Running hello(final boolean tls) throws Exception
    {
        return tls
            ? demos.start("http-hello", "--host", Loopback.HOST, "--port", "0", "--tls", "--keystore",
                TestCertificates.get().server().toString(), "--storepass", TestCertificates.PASSWORD)
            : demos.start("http-hello", "--host", Loopback.HOST, "--port", "0");
    }

    @Test
    void printsTheStatusLineHeadersAndBodyOfA200()
    {
        final Running hello = startQuietly(false);
        demos.clear();
        assertThat(demos.run("http-get", "--body", "--header", "Accept: application/json",
            "http://127.0.0.1:" + hello.port() + "/json")).isZero();
        assertThat(demos.out()).contains("HTTP/1.1 200 OK\r\n", "Content-Type: application/json\r\n",
            "Content-Length: 27\r\n", "\r\n\r\n{\"message\":\"Hello, World!\"}");
        demos.clear();
        assertThat(demos.run("http-get", "http://127.0.0.1:" + hello.port() + "/plaintext")).isZero();
        assertThat(demos.out()).contains("HTTP/1.1 200 OK").doesNotContain("Hello, World!");
    }

    @Test
    void exitsOneOnA404AndSaysWhy()
    {
        final Running hello = startQuietly(false);
        final String url = "http://127.0.0.1:" + hello.port() + "/missing";
        assertThat(demos.run("http-get", url)).isEqualTo(1);
        assertThat(demos.out()).contains("HTTP/1.1 404 Not Found");
        assertThat(demos.err()).contains("HTTP 404 from " + url);
    }

    @Test
    void fetchesOverTlsTrustingOnlyTheGivenStore()
    {
        final Running hello = startQuietly(true);
        final String url = "https://localhost:" + hello.port() + "/plaintext";
        demos.clear();
        assertThat(demos.run("http-get", "--body", "--truststore", TestCertificates.get().trustStore().toString(),
            "--storepass", TestCertificates.PASSWORD, url)).isZero();
        assertThat(demos.out()).contains("HTTP/1.1 200 OK", "Hello, World!");
        demos.clear();
        // The JDK's trust store does not know the test authority: verification is on by default.
        assertThat(demos.run("http-get", "--timeout-ms", "10000", url)).isEqualTo(1);
        assertThat(demos.err()).contains("http-get: no response from " + url).containsIgnoringCase("cert");
    }

    @Test
    void aRefusedConnectionIsAClearFailure() throws Exception
    {
        final int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress()))
        {
            closedPort = socket.getLocalPort();
        }
        final String url = "http://127.0.0.1:" + closedPort + "/";
        assertThat(demos.run("http-get", "--timeout-ms", "10000", url)).isEqualTo(1);
        assertThat(demos.err()).contains("http-get: no response from " + url, "cannot connect");
    }

    @Test
    void refusesWhatCannotWork()
    {
        assertThat(demos.runWithoutStarting("http-get")).isEqualTo(2);
        assertThat(demos.runWithoutStarting("http-get", "ftp://example.com/")).isEqualTo(2);
        assertThat(demos.runWithoutStarting("http-get", "--header", "NoColon", "http://127.0.0.1:1/")).isEqualTo(2);
        assertThat(demos.runWithoutStarting("http-get", "--truststore", "x.p12", "http://127.0.0.1:1/"))
            .isEqualTo(2);
    }

    private Running startQuietly(final boolean tls)
    {
        try
        {
            return hello(tls);
        }
        catch (final Exception ex)
        {
            throw new AssertionError(ex);
        }
    }
}
