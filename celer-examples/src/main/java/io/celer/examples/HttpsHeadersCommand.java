package io.celer.examples;

import java.util.concurrent.Callable;

import io.celer.examples.cli.ClientOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code ./celer demo https-headers}: runs a {@link TlsHeadersClient}, which always speaks TLS.
 */
@Command(
    name = "https-headers",
    description = "fetches / from an HTTPS server and prints the response headers, " +
        "trusting --truststore (or the JDK's trust store)")
public final class HttpsHeadersCommand implements Callable<Integer>
{
    @Mixin
    private ClientOptions client;

    /**
     * Prints the headers.
     *
     * @return the exit code: 0 if headers came, else 1.
     * @throws InterruptedException if interrupted while waiting.
     */
    @Override
    public Integer call() throws InterruptedException
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
