package io.celer.examples.queued;

import java.util.concurrent.Callable;

import io.celer.examples.cli.ServerOptions;
import io.celer.examples.cli.UsageException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./celer demo queued-server}: runs a {@link QueuedServer} and its worker threads until stopped.
 */
@Command(
    name = "queued-server",
    description = "answers each line X with '<length of X>: X', worked out on --workers threads; lines " +
        "starting 'heavy ' take a few ms on their own --heavy-workers")
public final class QueuedServerCommand implements Callable<Integer>
{
    private static final int MAX_WORKERS = 64;

    @Mixin
    private ServerOptions server;

    @Option(names = "--workers", paramLabel = "N", defaultValue = "" + QueuedServer.DEFAULT_WORKERS,
        description = "Worker threads of the light lane (default ${DEFAULT-VALUE}).")
    private int workers;

    @Option(names = "--heavy-workers", paramLabel = "N", defaultValue = "" + QueuedServer.DEFAULT_HEAVY_WORKERS,
        description = "Worker threads of the heavy lane (default ${DEFAULT-VALUE}).")
    private int heavyWorkers;

    /**
     * Runs the server until stopped (Ctrl-C), then stops its workers.
     *
     * @return the exit code: 0 once stopped, 1 if it could not start.
     * @throws InterruptedException if interrupted while waiting.
     */
    @Override
    public Integer call() throws InterruptedException
    {
        if (workers < 1 || workers > MAX_WORKERS || heavyWorkers < 1 || heavyWorkers > MAX_WORKERS)
        {
            throw new UsageException("--workers and --heavy-workers must be between 1 and " + MAX_WORKERS + ": " +
                workers + ", " + heavyWorkers);
        }
        return server.serve((reactor, running) ->
        {
            final QueuedServer queued = new QueuedServer(reactor, server.port(), server.config(), workers,
                heavyWorkers, QueuedServer.DEFAULT_HEAVY_WORK_MILLIS, QueuedServer.DEFAULT_QUEUE_CAPACITY);
            running.onStop(queued::close);
            return queued.open().localAddress();
        });
    }
}
