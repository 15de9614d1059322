package io.celer.examples;

import io.celer.examples.cli.ServerOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code ./celer demo print}: runs {@link PrintServer} until stopped; it has only the shared server options.
 */
public final class PrintCommand
{
    /**
     * Runs the server until stopped (Ctrl-C).
     *
     * @param server the shared server options.
     * @return the exit code: 0 once stopped, 1 if it could not start.
     * @throws InterruptedException if interrupted while waiting.
     */
    @Command(name = "print", description = "prints whatever clients send to standard output")
    static int run(@Mixin final ServerOptions server) throws InterruptedException
    {
        return server.serve(new PrintServer(server.out()));
    }
}
