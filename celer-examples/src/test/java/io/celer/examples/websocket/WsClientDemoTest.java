package io.celer.examples.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.examples.Demo;
import io.celer.examples.cli.Running;
import io.celer.examples.support.DemoRuns;
import io.celer.test.TestCertificates;

/**
 * {@code ./celer demo ws-client URL} against {@code ws-echo}, plain and over TLS: sends standard input's lines,
 * prints their echoes, closes at the end of input and exits 0; a URL nobody serves exits 1.
 */
class WsClientDemoTest
{
    @RegisterExtension
    final DemoRuns demos = new DemoRuns(Demo::execute);

    private int runWithInput(final String input, final String... args)
    {
        final InputStream stdin = System.in;
        System.setIn(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)));
        try
        {
            return demos.run(args);
        }
        finally
        {
            System.setIn(stdin);
        }
    }

    @Test
    void sendsLinesPrintsEchoesAndExitsAtTheEndOfInput() throws Exception
    {
        final Running echo = demos.start("ws-echo", "--host", "127.0.0.1", "--port", "0");
        final int code = runWithInput("hello\nw\u00f6rld \uD83D\uDE00\n", "ws-client",
            "ws://127.0.0.1:" + echo.port() + "/chat");
        assertThat(code).as(demos.err()).isZero();
        assertThat(demos.out()).contains("ws-client: open with permessage-deflate")
            .contains("< hello\n").contains("< w\u00f6rld \uD83D\uDE00\n").contains("ws-client: closed (1000)");
    }

    @Test
    void speaksTlsVerifyingTheServer() throws Exception
    {
        final TestCertificates certificates = TestCertificates.get();
        final Running echo = demos.start("ws-echo", "--host", "127.0.0.1", "--port", "0", "--tls", "--keystore",
            certificates.server().toString(), "--storepass", TestCertificates.PASSWORD);
        final int code = runWithInput("secure\n", "ws-client", "--no-deflate", "--truststore",
            certificates.trustStore().toString(), "--storepass", TestCertificates.PASSWORD,
            "wss://localhost:" + echo.port() + "/");
        assertThat(code).as(demos.err()).isZero();
        assertThat(demos.out()).contains("ws-client: open;").contains("< secure\n").contains("closed (1000)");
    }

    @Test
    void aServerThatIsNotThereFails() throws Exception
    {
        final Running echo = demos.start("ws-echo", "--host", "127.0.0.1", "--port", "0");
        final int port = echo.port();
        demos.stop(echo);
        assertThat(runWithInput("", "ws-client", "ws://127.0.0.1:" + port + "/")).isEqualTo(1);
        assertThat(demos.err()).contains("no WebSocket");
    }
}
