package io.celer.examples.stat;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import io.celer.counters.Counters;
import io.celer.counters.CountersReader;
import io.celer.http.server.HttpServer;
import io.celer.http.server.HttpServerConfig;
import io.celer.http.server.Router;
import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorConfig;
import io.celer.tcp.TcpConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ./celer stat [PID | FILE]}: every counter of a running Celer process, read from its counters file
 * without touching it, as a table refreshed every second with rates (as AeronStat does), or served as
 * OpenMetrics text at {@code /metrics} for Prometheus with {@code --serve PORT}.
 */
@Command(
    name = "./celer stat",
    description = {"Shows the counters of a running Celer process (demo, benchmark or application), read from " +
        "its counters file: a table refreshed every interval with rates per second, or OpenMetrics text for " +
        "Prometheus at http://HOST:PORT/metrics with --serve.",
        "With no PID or FILE: lists the counters files found and shows the only running one."},
    mixinStandardHelpOptions = true)
public final class StatCommand implements Callable<Integer>
{
    @Parameters(arity = "0..1", paramLabel = "PID|FILE", description = "A process id, or a counters file's path.")
    private String target;

    @Option(names = "--dir", paramLabel = "DIR",
        description = "Where processes write their counters files (default: ${java.io.tmpdir}/celer-<user>, " +
            "or -Dceler.counters.dir).")
    private Path dir = Counters.directory();

    @Option(names = "--interval", paramLabel = "MS", description = "Milliseconds between tables (default: 1000).")
    private long intervalMillis = 1000;

    @Option(names = "--count", paramLabel = "N", description = "Tables to print, then exit (default: until killed).")
    private long count = Long.MAX_VALUE;

    @Option(names = "--list", description = "List the counters files found, and exit.")
    private boolean list;

    @Option(names = "--serve", paramLabel = "PORT",
        description = "Serve the counters as OpenMetrics text at /metrics on this port instead of printing them.")
    private Integer servePort;

    @Option(names = "--bind", paramLabel = "ADDRESS", description = "Address to serve on (default: 0.0.0.0).")
    private String bindAddress = "0.0.0.0";

    private final PrintStream out;
    /** The port --serve listens on, once it does. */
    volatile int servedPort;

    /**
     * A command that prints to a stream.
     *
     * @param out where tables and lists go.
     */
    StatCommand(final PrintStream out)
    {
        this.out = out;
    }

    /**
     * Runs {@code ./celer stat}.
     *
     * @param args the command line.
     */
    public static void main(final String[] args)
    {
        // This process's own reactor (--serve) keeps its counters to itself: not a file beside those it reads.
        System.setProperty("celer.counters", "memory");
        System.exit(new CommandLine(new StatCommand(System.out)).execute(args));
    }

    @Override
    public Integer call() throws Exception
    {
        if (list)
        {
            printList();
            return 0;
        }
        final Path file = chooseFile();
        if (file == null)
        {
            return 1;
        }
        final CountersReader reader = CountersReader.open(file);
        if (servePort != null)
        {
            serve(reader);
            return 0;
        }
        final StatTable table = new StatTable();
        for (long i = 0; i < count; i++)
        {
            if (i > 0)
            {
                Thread.sleep(intervalMillis);
            }
            table.print(reader, out, System.nanoTime());
            out.flush();
            if (!reader.isWriterAlive())
            {
                out.println("process " + reader.pid() + " is gone (the file is stale: delete " + file + ")");
                return 1;
            }
        }
        return 0;
    }

    private void printList() throws IOException
    {
        final List<Path> files = CounterFiles.list(dir);
        if (files.isEmpty())
        {
            out.println("no counters files in " + dir);
        }
        files.forEach(f -> out.println(CounterFiles.describe(f)));
    }

    /** The file named, or the one running process's; lists the choices when there is not exactly one. */
    private Path chooseFile() throws IOException
    {
        if (target != null)
        {
            return CounterFiles.resolve(dir, target);
        }
        Path running = null;
        int alive = 0;
        for (final Path file : CounterFiles.list(dir))
        {
            try
            {
                if (CountersReader.open(file).isWriterAlive())
                {
                    running = file;
                    alive++;
                }
            }
            catch (final IOException ex)
            {
                // not a counters file we can read: the list shows why
            }
        }
        if (alive == 1)
        {
            return running;
        }
        out.println(alive == 0 ? "no running Celer process has counters in " + dir :
            alive + " running Celer processes: name one (./celer stat PID)");
        printList();
        return null;
    }

    private void serve(final CountersReader reader) throws InterruptedException
    {
        final Reactor reactor = new Reactor(new ReactorConfig().name("celer-stat").waitInSelector(true)).start();
        final Router router = Router.builder()
            .get("/metrics", (request, response) -> response
                .header("Content-Type", OpenMetricsText.CONTENT_TYPE)
                .body(OpenMetricsText.of(reader.snapshot(), reader.pid()).getBytes(StandardCharsets.UTF_8)))
            .build();
        final HttpServer server = new HttpServer(reactor, servePort, new HttpServerConfig()
            .tcp(new TcpConfig().bindAddress(bindAddress)).responseBufferSize(4 << 20), router).open();
        out.println("serving the counters of pid " + reader.pid() + " at http://" + bindAddress + ":" +
            server.port() + "/metrics");
        servedPort = server.port();
        out.flush();
        final Thread hook = new Thread(reactor::stop);
        Runtime.getRuntime().addShutdownHook(hook);
        try
        {
            new CountDownLatch(1).await(); // until killed, or interrupted
        }
        finally
        {
            reactor.stop();
            Runtime.getRuntime().removeShutdownHook(hook);
        }
    }
}
