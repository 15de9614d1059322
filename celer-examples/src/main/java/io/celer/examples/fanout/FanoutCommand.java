package io.celer.examples.fanout;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.Callable;

import io.celer.examples.cli.HostPortConverter;
import io.celer.examples.cli.ServerOptions;
import io.celer.examples.cli.UsageException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./celer demo fanout}: runs a {@link FanoutServer} in front of back-ends until stopped.
 */
@Command(
    name = "fanout",
    description = "forwards each line to one of --backends (backend servers) and sends the answer back, " +
        "in order, with failover",
    footer = {"%nTry: ./celer demo backend --port 54401 & ./celer demo backend --port 54402 &",
        "     ./celer demo fanout --backends localhost:54401,localhost:54402"})
public final class FanoutCommand implements Callable<Integer>
{
    @Mixin
    private ServerOptions server;

    @Option(names = "--backends", paramLabel = "HOST:PORT", split = ",", converter = HostPortConverter.class,
        description = "The back-ends to forward to, comma-separated; resolved on each connect, so they may " +
            "come up later.")
    private List<InetSocketAddress> backends;

    /**
     * Runs the front server until stopped (Ctrl-C).
     *
     * @return the exit code: 0 once stopped, 1 if it could not start.
     * @throws InterruptedException if interrupted while waiting.
     */
    @Override
    public Integer call() throws InterruptedException
    {
        if (backends == null || backends.isEmpty())
        {
            throw new UsageException("fanout needs --backends HOST:PORT,...");
        }
        if (backends.size() > FanoutServer.MAX_BACKENDS)
        {
            throw new UsageException("at most " + FanoutServer.MAX_BACKENDS + " --backends: " + backends.size());
        }
        return server.serve((reactor, running) ->
            new FanoutServer(reactor, server.port(), server.config(), backends).open().localAddress());
    }
}
