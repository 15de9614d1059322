package io.celer.examples;

import io.celer.examples.cli.ServerOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code ./celer demo echo-line}: runs {@link EchoLineServer} until stopped; it has only the shared server options.
 */
public final class EchoLineCommand
{
    /**
     * Runs the server until stopped (Ctrl-C).
     *
     * @param server the shared server options.
     * @return the exit code: 0 once stopped, 1 if it could not start.
     * @throws InterruptedException if interrupted while waiting.
     */
    @Command(name = "echo-line", description = "echoes each line; the line 'bye' closes the connection")
    static int run(@Mixin final ServerOptions server) throws InterruptedException
    {
        return server.serve(EchoLineServer::config, new EchoLineServer());
    }
}
