package io.celer.examples;

import io.celer.examples.cli.ReactorOptions;
import io.celer.examples.cli.ServerOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code ./celer demo echo-line}: runs {@link EchoLineServer} until stopped, on one reactor or several.
 */
public final class EchoLineCommand
{
    /**
     * Runs the server until stopped (Ctrl-C).
     *
     * @param server   the shared server options.
     * @param reactors how many reactors, on which CPUs.
     * @return the exit code: 0 once stopped, 1 if it could not start.
     * @throws InterruptedException if interrupted while waiting.
     */
    @Command(name = "echo-line", description = "echoes each line; the line 'bye' closes the connection")
    static int run(@Mixin final ServerOptions server, @Mixin final ReactorOptions reactors)
        throws InterruptedException
    {
        return server.serve(reactors, EchoLineServer::config, EchoLineServer::new);
    }
}
