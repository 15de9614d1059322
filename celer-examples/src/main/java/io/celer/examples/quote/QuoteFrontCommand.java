package io.celer.examples.quote;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import io.celer.examples.cli.BackendsFile;
import io.celer.examples.cli.ReactorOptions;
import io.celer.examples.cli.ServerOptions;
import io.celer.examples.cli.UsageException;
import io.celer.http.client.HttpUrl;
import io.celer.tcp.TcpConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./celer demo http-quote}: runs a {@link QuoteFront} before its back-ends until stopped.
 */
@Command(
    name = "http-quote",
    description = "HTTP/1.1: GET /SYMBOL is asked of one of --backends over pipelined connections and answered " +
        "when it replies, never blocking; failover to the other back-ends, 502/503/504 when none answers",
    footer = {"%nTry: ./celer demo http-quote-backend --port 54401 --delay-ms 200 &",
        "     ./celer demo http-quote-backend --port 54402 &",
        "     ./celer demo http-quote --backends localhost:54401,localhost:54402 & curl localhost:54321/IBM"})
public final class QuoteFrontCommand implements Callable<Integer>
{
    @Mixin
    private ServerOptions server;

    @Mixin
    private ReactorOptions reactors;

    @Option(names = "--backends", paramLabel = "HOST:PORT", split = ",",
        description = "The back-ends (http-quote-backend), comma-separated; they may come up later.")
    private List<String> backends;

    @Option(names = "--backends-file", paramLabel = "FILE",
        description = "A file of back-ends, one HOST:PORT a line, read at start and watched: back-ends added to " +
            "it join, those taken out leave (after answering what they hold).")
    private Path backendsFile;

    @Option(names = "--connections", paramLabel = "N", defaultValue = "2",
        description = "Pipelined connections to each back-end (default ${DEFAULT-VALUE}).")
    private int connections;

    @Option(names = "--max-pending", paramLabel = "N", defaultValue = "1024",
        description = "Most quotes pending at once; more are answered 503 (default ${DEFAULT-VALUE}).")
    private int maxPending;

    @Option(names = "--timeout-ms", paramLabel = "MS", defaultValue = "5000",
        description = "How long a back-end may take before the client hears 504 (default ${DEFAULT-VALUE}).")
    private long timeoutMillis;

    /**
     * Runs the front until stopped (Ctrl-C).
     *
     * @return the exit code: 0 once stopped, 1 if it could not start.
     * @throws InterruptedException if interrupted while waiting.
     */
    @Override
    public Integer call() throws InterruptedException
    {
        final List<String> first = new ArrayList<>(backends == null ? List.of() : backends);
        if (backendsFile != null)
        {
            for (final String hostPort : BackendsFile.read(backendsFile))
            {
                if (!first.contains(hostPort))
                {
                    first.add(hostPort);
                }
            }
        }
        if (first.isEmpty())
        {
            throw new UsageException("http-quote needs --backends HOST:PORT,... or a --backends-file that names one");
        }
        for (final String backend : first)
        {
            try
            {
                HttpUrl.parseAuthority(backend, -1);
            }
            catch (final IllegalArgumentException ex)
            {
                throw new UsageException("--backends takes HOST:PORT,...: " + ex.getMessage());
            }
        }
        if (connections < 1 || maxPending < 1 || timeoutMillis < 1)
        {
            throw new UsageException("--connections, --max-pending and --timeout-ms must be 1 or more");
        }
        final QuoteFront.Links links = new QuoteFront.Links(connections, maxPending, timeoutMillis);
        // A front per reactor, each with its own back-end links, all listening on one port: the kernel spreads
        // the clients over them.
        return server.serve(reactors, (group, running) ->
        {
            final TcpConfig tcp = server.config().reusePort(group.size() > 1);
            final List<QuoteFront> fronts = new ArrayList<>();
            fronts.add(new QuoteFront(group.reactor(0), server.port(), tcp, first, links));
            final InetSocketAddress address = fronts.get(0).open();
            for (int i = 1; i < group.size(); i++)
            {
                fronts.add(new QuoteFront(group.reactor(i), address.getPort(), tcp, first, links));
                fronts.get(i).open();
            }
            if (backendsFile != null)
            {
                // From the watching thread: each front's calls go through its reactor's queue.
                running.onStop(BackendsFile.watch(backendsFile, first, BackendsFile.DEFAULT_PERIOD_MILLIS,
                    new BackendsFile.Changes()
                    {
                        @Override
                        public void add(final String hostPort)
                        {
                            fronts.forEach(front -> front.addBackend(hostPort));
                        }

                        @Override
                        public void remove(final String hostPort)
                        {
                            fronts.forEach(front -> front.removeBackend(hostPort));
                        }
                    }, running.err())::close);
            }
            return address;
        });
    }
}
