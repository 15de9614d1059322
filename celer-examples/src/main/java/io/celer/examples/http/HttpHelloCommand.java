package io.celer.examples.http;

import io.celer.examples.cli.ReactorOptions;
import io.celer.examples.cli.ServerOptions;
import io.celer.http.server.HttpServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code ./celer demo http-hello}: runs an {@link HttpServer} of {@link HelloRoutes} until stopped, on one
 * reactor or several.
 */
public final class HttpHelloCommand
{
    private HttpHelloCommand()
    {
    }

    /**
     * Runs the server until stopped (Ctrl-C).
     *
     * @param server   the shared server options.
     * @param reactors how many reactors, on which CPUs.
     * @return the exit code: 0 once stopped, 1 if it could not start.
     * @throws InterruptedException if interrupted while waiting.
     */
    @Command(
        name = "http-hello",
        description = "HTTP/1.1: GET /plaintext and GET /json say Hello, World!, POST /echo sends the body back; " +
            "garbage-free per request")
    static int run(@Mixin final ServerOptions server, @Mixin final ReactorOptions reactors)
        throws InterruptedException
    {
        return server.serve(reactors, (group, running) -> new HttpServer(group, server.port(),
            HelloRoutes.config(server.config()), reactor -> new HelloRoutes().router()).open().localAddress());
    }
}
