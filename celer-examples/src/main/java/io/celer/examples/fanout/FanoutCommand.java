package io.celer.examples.fanout;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import io.celer.examples.cli.BackendsFile;
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
        "in order, with failover; clients are slowed down, never refused, when the back-ends are full",
    footer = {"%nTry: ./celer demo backend --port 54401 & ./celer demo backend --port 54402 &",
        "     ./celer demo fanout --backends localhost:54401,localhost:54402",
        "%nBack-ends that join and leave: list them in a file, one HOST:PORT a line, and edit it while it runs:",
        "     ./celer demo fanout --backends-file backends.txt"})
public final class FanoutCommand implements Callable<Integer>
{
    @Mixin
    private ServerOptions server;

    @Option(names = "--backends", paramLabel = "HOST:PORT", split = ",", converter = HostPortConverter.class,
        description = "The back-ends to forward to, comma-separated; resolved on each connect, so they may " +
            "come up later.")
    private List<InetSocketAddress> backends;

    @Option(names = "--backends-file", paramLabel = "FILE",
        description = "A file of back-ends, one HOST:PORT a line, read at start and watched: back-ends added to " +
            "it join, those taken out leave (after answering what they hold).")
    private Path backendsFile;

    /**
     * Runs the front server until stopped (Ctrl-C).
     *
     * @return the exit code: 0 once stopped, 1 if it could not start.
     * @throws InterruptedException if interrupted while waiting.
     */
    @Override
    public Integer call() throws InterruptedException
    {
        final HostPortConverter converter = new HostPortConverter();
        final List<InetSocketAddress> first = new ArrayList<>(backends == null ? List.of() : backends);
        final List<String> named = new ArrayList<>();
        first.forEach(address -> named.add(address.getHostString() + ":" + address.getPort()));
        if (backendsFile != null)
        {
            for (final String hostPort : BackendsFile.read(backendsFile))
            {
                final InetSocketAddress address = converter.convert(hostPort);
                if (!first.contains(address))
                {
                    first.add(address);
                    named.add(hostPort);
                }
            }
        }
        if (first.isEmpty() && backendsFile == null)
        {
            throw new UsageException("fanout needs --backends HOST:PORT,... or --backends-file FILE");
        }
        if (first.size() > FanoutServer.MAX_BACKENDS)
        {
            throw new UsageException("at most " + FanoutServer.MAX_BACKENDS + " back-ends: " + first.size());
        }
        return server.serve((reactor, running) ->
        {
            final FanoutServer front = new FanoutServer(reactor, server.port(), server.config(), first).open();
            if (backendsFile != null)
            {
                // From the watching thread: the server's calls go through its reactor's queue.
                running.onStop(BackendsFile.watch(backendsFile, named, BackendsFile.DEFAULT_PERIOD_MILLIS,
                    new BackendsFile.Changes()
                    {
                        @Override
                        public void add(final String hostPort)
                        {
                            front.addBackend(converter.convert(hostPort));
                        }

                        @Override
                        public void remove(final String hostPort)
                        {
                            front.removeBackend(converter.convert(hostPort));
                        }
                    }, running.err())::close);
            }
            return front.localAddress();
        });
    }
}
