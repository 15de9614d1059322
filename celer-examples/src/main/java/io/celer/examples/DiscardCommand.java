package io.celer.examples;

import java.util.concurrent.Callable;

import io.celer.examples.cli.ServerOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code ./celer demo discard}: runs {@link DiscardServer} until stopped.
 */
@Command(name = "discard", description = "drops whatever clients send")
public final class DiscardCommand implements Callable<Integer>
{
    @Mixin
    private ServerOptions server;

    /**
     * Runs the server until stopped (Ctrl-C).
     *
     * @return the exit code: 0 once stopped, 1 if it could not start.
     * @throws InterruptedException if interrupted while waiting.
     */
    @Override
    public Integer call() throws InterruptedException
    {
        return server.serve(new DiscardServer());
    }
}
