package io.celer.examples.http;

import io.celer.examples.cli.ServerOptions;
import io.celer.http.server.HttpServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code ./celer demo http-timeblock}: runs an {@link HttpServer} of {@link TimeBlockRoutes} until stopped; it
 * has only the shared server options.
 */
public final class HttpTimeBlockCommand
{
    private HttpTimeBlockCommand()
    {
    }

    /**
     * Runs the server until stopped (Ctrl-C).
     *
     * @param server the shared server options.
     * @return the exit code: 0 once stopped, 1 if it could not start.
     * @throws InterruptedException if interrupted while waiting.
     */
    @Command(
        name = "http-timeblock",
        description = "HTTP/1.1: GET /gettimeblock answers the 2009 paper's page of 512 time blocks, then closes")
    static int run(@Mixin final ServerOptions server) throws InterruptedException
    {
        return server.serve((reactor, running) -> new HttpServer(reactor, server.port(),
            TimeBlockRoutes.config(server.config()), new TimeBlockRoutes().router()).open().localAddress());
    }
}
