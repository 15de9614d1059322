package io.celer.examples;

import io.celer.examples.cli.ClientOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code ./celer demo https-headers}: runs a {@link TlsHeadersClient}, which always speaks TLS.
 */
public final class HttpsHeadersCommand
{
    /**
     * Prints the headers.
     *
     * @param client the shared client options.
     * @return the exit code: 0 if headers came, else 1.
     * @throws InterruptedException if interrupted while waiting.
     */
    @Command(
        name = "https-headers",
        description = "fetches / from an HTTPS server and prints the response headers, " +
            "trusting --truststore (or the JDK's trust store)")
    static int run(@Mixin final ClientOptions client) throws InterruptedException
    {
        return client.connectOverTls((reactor, running) ->
        {
            final TlsHeadersClient headers =
                new TlsHeadersClient(reactor, client.host(), client.port(), client.tlsConfig(), client.out());
            running.finishWhen(headers.outcome(), () -> !headers.headers().isEmpty(),
                () -> "no headers (" + headers.outcome().closeReason() + ")");
            headers.open();
        });
    }
}
