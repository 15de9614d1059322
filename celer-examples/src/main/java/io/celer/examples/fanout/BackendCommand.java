package io.celer.examples.fanout;

import java.util.concurrent.Callable;

import io.celer.examples.cli.ServerOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code ./celer demo backend}: runs a {@link BackendServer} until stopped.
 */
@Command(name = "backend", description = "answers each line X with '<its port>:X'")
public final class BackendCommand implements Callable<Integer>
{
    @Mixin
    private ServerOptions server;

    /**
     * Runs the back-end until stopped (Ctrl-C).
     *
     * @return the exit code: 0 once stopped, 1 if it could not start.
     * @throws InterruptedException if interrupted while waiting.
     */
    @Override
    public Integer call() throws InterruptedException
    {
        return server.serve((reactor, running) ->
            new BackendServer(reactor, server.port(), server.config()).open().localAddress());
    }
}
