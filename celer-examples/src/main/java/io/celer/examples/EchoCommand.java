package io.celer.examples;

import java.util.function.UnaryOperator;

import io.celer.examples.cli.ReactorOptions;
import io.celer.examples.cli.ServerOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code ./celer demo echo}: runs {@link EchoServer} until stopped, on one reactor or several.
 */
public final class EchoCommand
{
    /**
     * Runs the server until stopped (Ctrl-C).
     *
     * @param server   the shared server options.
     * @param reactors how many reactors, on which CPUs.
     * @return the exit code: 0 once stopped, 1 if it could not start.
     * @throws InterruptedException if interrupted while waiting.
     */
    @Command(name = "echo", description = "sends every byte back")
    static int run(@Mixin final ServerOptions server, @Mixin final ReactorOptions reactors)
        throws InterruptedException
    {
        return server.serve(reactors, UnaryOperator.identity(), EchoServer::new);
    }
}
