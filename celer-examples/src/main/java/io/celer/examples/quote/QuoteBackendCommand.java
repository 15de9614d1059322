package io.celer.examples.quote;

import java.util.concurrent.Callable;

import io.celer.examples.cli.ServerOptions;
import io.celer.examples.cli.UsageException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./celer demo http-quote-backend}: runs a {@link QuoteBackend} until stopped.
 */
@Command(
    name = "http-quote-backend",
    description = "HTTP/1.1: GET /SYMBOL answers a made-up quote line after --delay-ms, kept by a reactor " +
        "timer (the reactor never sleeps); the back-end of http-quote")
public final class QuoteBackendCommand implements Callable<Integer>
{
    @Mixin
    private ServerOptions server;

    @Option(names = "--delay-ms", paramLabel = "D", defaultValue = "0",
        description = "How long each quote takes, in milliseconds (default ${DEFAULT-VALUE}).")
    private long delayMillis;

    /**
     * Runs the back-end until stopped (Ctrl-C).
     *
     * @return the exit code: 0 once stopped, 1 if it could not start.
     * @throws InterruptedException if interrupted while waiting.
     */
    @Override
    public Integer call() throws InterruptedException
    {
        if (delayMillis < 0)
        {
            throw new UsageException("--delay-ms must be 0 or more: " + delayMillis);
        }
        return server.serve((reactor, running) ->
            new QuoteBackend(reactor, server.port(), server.config(), delayMillis).open());
    }
}
