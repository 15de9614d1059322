package io.celer.examples.fanout;

import io.celer.examples.cli.ServerOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code ./celer demo backend}: runs {@link BackendServer} until stopped; it has only the shared server options.
 */
public final class BackendCommand
{
    /**
     * Runs the server until stopped (Ctrl-C).
     *
     * @param server the shared server options.
     * @return the exit code: 0 once stopped, 1 if it could not start.
     * @throws InterruptedException if interrupted while waiting.
     */
    @Command(name = "backend", description = "answers each line X with '<its port>:X'")
    static int run(@Mixin final ServerOptions server) throws InterruptedException
    {
        return server.serve((reactor, running) ->
            new BackendServer(reactor, server.port(), server.config()).open().localAddress());
    }
}
