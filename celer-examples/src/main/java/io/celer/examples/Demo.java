package io.celer.examples;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import io.celer.examples.counter.CounterClient;
import io.celer.examples.counter.CounterTicker;
import io.celer.examples.fanout.BackendServer;
import io.celer.examples.fanout.FanoutServer;
import io.celer.examples.queued.QueuedServer;
import io.celer.examples.ticktotrade.TickToTrade;
import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorConfig;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;
import io.celer.tls.TlsConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code ./celer demo NAME}: runs one example on its own reactor in the foreground.
 *
 * <p>Servers run until the process is killed; Ctrl-C stops the reactor, which closes every connection, and
 * then any worker threads. The clients exit by themselves when their server hangs up or when they are done.
 */
@Command(
    name = "./celer demo",
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = "Runs one of Celer's examples in the foreground. Servers run until killed (Ctrl-C); " +
        "the clients exit when their server hangs up or when they are done.",
    footerHeading = "%nNames:%n",
    footer = {
        "  discard            drops whatever clients send",
        "  print              prints whatever clients send to standard output",
        "  echo               sends every byte back",
        "  echo-line          echoes each line; the line 'bye' closes the connection",
        "  time               RFC 868: sends the time as 4 bytes and hangs up",
        "  time-client        prints the times an RFC 868 server sends (time, time-beat)",
        "  time-beat          sends the time on connect and then every second",
        "  throughput-client  sends --messages lines of --size bytes as fast as it can",
        "                     to a line or discard server, and prints the rate",
        "  queued-server      answers each line X with '<length of X>: X', worked out on",
        "                     --workers threads; lines starting 'heavy ' take a few ms on",
        "                     their own --heavy-workers",
        "  counter-client     counts '+' and '-' lines from a server; another thread adds",
        "                     changes every second through a garbage-free callback queue",
        "  backend            answers each line X with '<its port>:X'",
        "  fanout             forwards each line to one of --backends (backend servers)",
        "                     and sends the answer back, in order, with failover",
        "  https-headers      fetches / from an HTTPS server and prints the response headers,",
        "                     trusting --truststore (or the JDK's trust store)",
        "  tick-to-trade      quotes by UDP multicast on loopback, an order by TCP for each;",
        "                     warms up, measures --quotes spaced quotes, prints percentiles",
        "",
        "Try: ./celer demo echo-line, then in another terminal: telnet localhost 54321",
        "Or:  ./celer demo backend --port 54401 & ./celer demo backend --port 54402 &",
        "     ./celer demo fanout --backends localhost:54401,localhost:54402"})
public final class Demo implements Callable<Integer>
{
    /** The port the demos use by default. */
    public static final int DEFAULT_PORT = 54321;

    /** Where servers listen by default: every local address. */
    static final String ANY_ADDRESS = "0.0.0.0";

    private static final String DEFAULT_CLIENT_HOST = "localhost";
    private static final int MAX_WORKERS = 64;

    @Parameters(
        index = "0",
        paramLabel = "NAME",
        converter = NameConverter.class,
        completionCandidates = Names.class,
        description = "The example: ${COMPLETION-CANDIDATES}.")
    private Example example;

    @Option(
        names = "--host",
        paramLabel = "H",
        description = "Servers: the address to listen on (default " + ANY_ADDRESS + "). " +
            "Clients: the server to connect to (default " + DEFAULT_CLIENT_HOST + ").")
    private String host;

    @Option(
        names = "--port",
        paramLabel = "N",
        defaultValue = "" + DEFAULT_PORT,
        description = "Port to listen on or connect to (default ${DEFAULT-VALUE}); 0 picks a free one for a server.")
    private int port;

    @Option(
        names = "--messages",
        paramLabel = "N",
        defaultValue = "" + ThroughputClient.DEFAULT_MESSAGES,
        description = "throughput-client: messages to send (default ${DEFAULT-VALUE}).")
    private int messages;

    @Option(
        names = "--size",
        paramLabel = "B",
        defaultValue = "" + ThroughputClient.DEFAULT_MESSAGE_SIZE,
        description = "throughput-client: bytes per message, line end excluded (default ${DEFAULT-VALUE}).")
    private int size;

    @Option(
        names = "--workers",
        paramLabel = "N",
        defaultValue = "" + QueuedServer.DEFAULT_WORKERS,
        description = "queued-server: worker threads of the light lane (default ${DEFAULT-VALUE}).")
    private int workers;

    @Option(
        names = "--heavy-workers",
        paramLabel = "N",
        defaultValue = "" + QueuedServer.DEFAULT_HEAVY_WORKERS,
        description = "queued-server: worker threads of the heavy lane (default ${DEFAULT-VALUE}).")
    private int heavyWorkers;

    @Option(
        names = "--backends",
        paramLabel = "HOST:PORT",
        split = ",",
        converter = AddressConverter.class,
        description = "fanout: the back-ends to forward to, comma-separated.")
    private List<InetSocketAddress> backends;

    @Option(
        names = "--quotes",
        paramLabel = "N",
        defaultValue = "10000",
        description = "tick-to-trade: spaced quotes to measure (default ${DEFAULT-VALUE}).")
    private long quotes;

    @Option(
        names = "--warmup",
        paramLabel = "N",
        defaultValue = "1000000",
        description = "tick-to-trade: quotes to warm up with (default ${DEFAULT-VALUE}).")
    private long warmUp;

    @Option(
        names = "--spacing-us",
        paramLabel = "N",
        defaultValue = "100",
        description = "tick-to-trade: microseconds between measured quotes (default ${DEFAULT-VALUE}).")
    private long spacingMicros;

    @Option(
        names = "--tls",
        description = "Speak TLS: servers need --keystore; clients verify the server against --truststore " +
            "(or the JDK's default trust store) and its host name.")
    private boolean tls;

    @Option(
        names = "--keystore",
        paramLabel = "FILE",
        description = "With --tls, servers: the PKCS12 (.p12) or JKS (.jks) key store with the certificate and key.")
    private java.nio.file.Path keyStore;

    @Option(
        names = "--truststore",
        paramLabel = "FILE",
        description = "With --tls, clients: the PKCS12 or JKS store of the certificates to trust.")
    private java.nio.file.Path trustStore;

    @Option(
        names = "--storepass",
        paramLabel = "PASS",
        defaultValue = "",
        description = "The password of --keystore and --truststore.")
    private String storePassword;

    @Option(
        names = "--busy-spin",
        description = "Spin the reactor thread when idle, for the lowest latency (one core at 100%%); " +
            "by default it backs off.")
    private boolean busySpin;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    private boolean help;

    @Spec
    private CommandSpec spec;

    private final PrintStream out;
    private final PrintStream err;
    private final Consumer<Running> onStart;

    private Demo(final PrintStream out, final PrintStream err, final Consumer<Running> onStart)
    {
        this.out = out;
        this.err = err;
        this.onStart = onStart;
    }

    /**
     * Runs a demo and exits with its exit code; Ctrl-C stops it cleanly.
     *
     * @param args {@code NAME [OPTIONS]}, or {@code --help}; see {@code ./celer demo --help}.
     */
    public static void main(final String[] args)
    {
        System.exit(execute(System.out, System.err, Demo::stopOnShutdown, args));
    }

    /**
     * Parses the arguments and runs the demo they name until it finishes or is stopped.
     *
     * @param out     where the demo and the help print.
     * @param err     where errors go.
     * @param onStart told of the running demo once it started, on the calling thread, before this waits;
     *                {@link Running#stop()} ends the wait.
     * @param args    the command line after {@code demo}.
     * @return 0 on success, 1 if the demo failed, 2 for bad arguments.
     */
    public static int execute(
        final PrintStream out, final PrintStream err, final Consumer<Running> onStart, final String... args)
    {
        final CommandLine commandLine = new CommandLine(new Demo(out, err, onStart));
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        commandLine.setParameterExceptionHandler((ex, badArgs) ->
        {
            // One clear line beats the whole usage text scrolling the mistake away.
            ex.getCommandLine().getErr().println(ex.getMessage());
            ex.getCommandLine().getErr().println("Try './celer demo --help' for the names and options.");
            return CommandLine.ExitCode.USAGE;
        });
        return commandLine.execute(args);
    }

    /**
     * Runs the demo of that name with the arguments after it; for the examples' own {@code main} methods.
     *
     * @param name the demo.
     * @param args its options.
     */
    public static void mainFor(final String name, final String[] args)
    {
        final String[] all = new String[args.length + 1];
        all[0] = name;
        System.arraycopy(args, 0, all, 1, args.length);
        main(all);
    }

    private static void stopOnShutdown(final Running running)
    {
        Runtime.getRuntime().addShutdownHook(new Thread(running::stop, "celer-demo-shutdown"));
    }

    /**
     * Starts the demo, tells the caller and waits for its end.
     *
     * @return the exit code.
     * @throws Exception if interrupted while waiting.
     */
    @Override
    public Integer call() throws Exception
    {
        validate();
        if (example == Example.TICK_TO_TRADE)
        {
            // Runs its own generator, strategy and exchange reactors, and ends by itself.
            TickToTrade.print(TickToTrade.run(warmUp, quotes, spacingMicros, out), out);
            return 0;
        }
        final Running running = start();
        if (running == null)
        {
            return 1;
        }
        onStart.accept(running);
        return running.await();
    }

    private void validate()
    {
        final int lowestPort = example.client ? 1 : 0;
        if (port < lowestPort || port > 65535)
        {
            throw new ParameterException(spec.commandLine(),
                "--port must be between " + lowestPort + " and 65535 for " + example.label + ": " + port);
        }
        if (messages < 1)
        {
            throw new ParameterException(spec.commandLine(), "--messages must be at least 1: " + messages);
        }
        if (size < 1 || size > 1 << 20)
        {
            throw new ParameterException(spec.commandLine(), "--size must be between 1 and 1048576: " + size);
        }
        if (workers < 1 || workers > MAX_WORKERS || heavyWorkers < 1 || heavyWorkers > MAX_WORKERS)
        {
            throw new ParameterException(spec.commandLine(), "--workers and --heavy-workers must be between 1 and " +
                MAX_WORKERS + ": " + workers + ", " + heavyWorkers);
        }
        if (tls && !example.client && keyStore == null)
        {
            throw new ParameterException(spec.commandLine(), example.label + " --tls needs --keystore FILE");
        }
        if (!tls && example != Example.HTTPS_HEADERS && (keyStore != null || trustStore != null))
        {
            throw new ParameterException(spec.commandLine(), "--keystore and --truststore only go with --tls");
        }
        if (quotes < 1 || warmUp < 0 || spacingMicros < 0)
        {
            throw new ParameterException(spec.commandLine(),
                "--quotes must be at least 1, --warmup and --spacing-us at least 0");
        }
        if (example == Example.FANOUT && (backends == null || backends.isEmpty()))
        {
            throw new ParameterException(spec.commandLine(), "fanout needs --backends HOST:PORT,...");
        }
        if (backends != null && backends.size() > FanoutServer.MAX_BACKENDS)
        {
            throw new ParameterException(spec.commandLine(),
                "at most " + FanoutServer.MAX_BACKENDS + " --backends: " + backends.size());
        }
    }

    private Running start()
    {
        final IdleStrategy idle = busySpin ? new BusySpinIdleStrategy() : new BackoffIdleStrategy();
        final Reactor reactor = new Reactor(
            new ReactorConfig().name("celer-demo-" + example.label).idleStrategy(idle).daemon(true));
        final Running running = new Running(reactor);
        reactor.start();
        try
        {
            if (example.client)
            {
                startClient(reactor, running);
            }
            else
            {
                startServer(reactor, running);
            }
        }
        catch (final UncheckedIOException | IllegalArgumentException | IllegalStateException ex)
        {
            // An unresolvable bind address, say, a port in use, or a key store that does not open.
            err.println("demo " + example.label + ": " + message(ex) + describe(ex.getCause()));
            reactor.stop();
            return null;
        }
        return running;
    }

    private void startServer(final Reactor reactor, final Running running)
    {
        final String bindAddress = host != null ? host : ANY_ADDRESS;
        final TcpConfig base = transport(new TcpConfig().bindAddress(bindAddress));
        final InetSocketAddress address;
        switch (example)
        {
            case DISCARD:
                address = new TcpServer(reactor, port, base, new DiscardServer()).open().localAddress();
                break;
            case PRINT:
                address = new TcpServer(reactor, port, base, new PrintServer(out)).open().localAddress();
                break;
            case ECHO:
                address = new TcpServer(reactor, port, base, new EchoServer()).open().localAddress();
                break;
            case ECHO_LINE:
                address = new TcpServer(reactor, port, EchoLineServer.config(base), new EchoLineServer()).open()
                    .localAddress();
                break;
            case TIME:
                address = new TcpServer(reactor, port, base, new TimeServer()).open().localAddress();
                break;
            case TIME_BEAT:
                address = new TcpServer(reactor, port, base, new TimeBeatServer()).open().localAddress();
                break;
            case QUEUED_SERVER:
                final QueuedServer queued = new QueuedServer(reactor, port, base, workers,
                    heavyWorkers, QueuedServer.DEFAULT_HEAVY_WORK_MILLIS, QueuedServer.DEFAULT_QUEUE_CAPACITY);
                running.cleanup = queued::close;
                address = queued.open().localAddress();
                break;
            case BACKEND:
                address = new BackendServer(reactor, port, base).open().localAddress();
                break;
            case FANOUT:
                address = new FanoutServer(reactor, port, base, backends).open().localAddress();
                break;
            default:
                throw new IllegalStateException("not a server: " + example.label);
        }
        running.address = address;
        // The address as given: a wildcard bind reads back as the IPv6 "::" on a dual-stack host.
        out.println(example.label + ": listening on " + bindAddress + ":" + address.getPort() +
            (tls ? " over TLS" : "") + " (" + example.description + "); Ctrl-C stops it");
    }

    private void startClient(final Reactor reactor, final Running running)
    {
        final String serverHost = host != null ? host : DEFAULT_CLIENT_HOST;
        running.address = InetSocketAddress.createUnresolved(serverHost, port);
        final TcpConfig base = transport(new TcpConfig());
        out.println(example.label + ": connecting to " + serverHost + ":" + port + (tls ? " over TLS" : ""));
        if (example == Example.HTTPS_HEADERS)
        {
            final TlsHeadersClient client = new TlsHeadersClient(reactor, serverHost, port, tlsConfig(), out);
            client.outcome().onDone(() ->
            {
                if (client.headers().isEmpty())
                {
                    err.println("https-headers: no headers (" + client.outcome().closeReason() + ")" +
                        describe(client.outcome().failure()));
                }
                running.finish(client.headers().isEmpty() ? 1 : 0);
            });
            client.open();
        }
        else if (example == Example.COUNTER_CLIENT)
        {
            final CounterClient client = new CounterClient(reactor, serverHost, port, base, out);
            final CounterTicker ticker = new CounterTicker(reactor, client, 1_000);
            running.cleanup = ticker::stop;
            client.outcome().onDone(() ->
            {
                ticker.stop();
                if (client.linesReceived() == 0)
                {
                    err.println("counter-client: nothing received from the server");
                }
                running.finish(client.linesReceived() > 0 ? 0 : 1);
            });
            client.open();
            ticker.start();
        }
        else if (example == Example.TIME_CLIENT)
        {
            final TimeClient client = new TimeClient(reactor, serverHost, port, base, out);
            client.outcome().onDone(() ->
            {
                if (client.received() == 0)
                {
                    err.println("time-client: no time received" + describe(client.outcome().failure()));
                }
                running.finish(client.received() > 0 ? 0 : 1);
            });
            client.open();
        }
        else
        {
            // The write buffer must hold at least one line; a few make the batches worth it.
            final TcpConfig config = base.writeBufferSize(Math.max(64 * 1024, 4 * (size + 1)));
            final ThroughputClient client =
                new ThroughputClient(reactor, serverHost, port, messages, size, config, out);
            client.outcome().onDone(() ->
            {
                if (!client.completed())
                {
                    err.println("throughput-client: stopped before all was sent (" + client.outcome().closeReason() + ")" +
                        describe(client.outcome().failure()));
                }
                running.finish(client.completed() ? 0 : 1);
            });
            client.open();
        }
    }

    /**
     * Turns TLS on when asked: a server presents the key store's certificate, a client trusts the trust store
     * (the JDK's default one without it) and checks the server's host name.
     */
    private TcpConfig transport(final TcpConfig config)
    {
        return tls ? config.transport(tlsConfig()) : config;
    }

    private TlsConfig tlsConfig()
    {
        final TlsConfig tlsConfig = new TlsConfig();
        if (keyStore != null)
        {
            tlsConfig.keyStore(keyStore, storePassword);
        }
        if (trustStore != null)
        {
            tlsConfig.trustStore(trustStore, storePassword);
        }
        return tlsConfig;
    }

    private static String describe(final Throwable failure)
    {
        return failure == null ? "" : ": " + message(failure);
    }

    private static String message(final Throwable failure)
    {
        // Some exceptions (UnresolvedAddressException) carry no message: their name says it all.
        return failure.getMessage() != null ? failure.getMessage() : failure.getClass().getSimpleName();
    }

    /**
     * A demo that runs: where it listens or connects, and how to stop it.
     */
    public static final class Running
    {
        private final Reactor reactor;
        private final CountDownLatch finished = new CountDownLatch(1);
        private volatile InetSocketAddress address;
        private volatile int exitCode;
        private volatile Runnable cleanup;

        private Running(final Reactor reactor)
        {
            this.reactor = reactor;
        }

        /**
         * Where a server listens, or the server a client connects to.
         *
         * @return the address.
         */
        public InetSocketAddress address()
        {
            return address;
        }

        /**
         * The port a server listens on (the one picked, for port 0), or a client connects to.
         *
         * @return the port.
         */
        public int port()
        {
            return address.getPort();
        }

        /**
         * Whether it has finished or been stopped.
         *
         * @return true once over.
         */
        public boolean isFinished()
        {
            return finished.getCount() == 0;
        }

        /**
         * Stops the reactor, closing every connection, and waits for it; from any thread, more than once.
         */
        public void stop()
        {
            reactor.stop();
            final Runnable toClean = cleanup;
            if (toClean != null)
            {
                // Worker threads and the like, which the reactor does not own.
                toClean.run();
            }
            finished.countDown();
        }

        /**
         * Waits until a client finishes or {@link #stop()} is called, then stops the reactor.
         *
         * @return the exit code: 0 unless a client failed.
         * @throws InterruptedException if interrupted while waiting.
         */
        public int await() throws InterruptedException
        {
            finished.await();
            stop();
            return exitCode;
        }

        private void finish(final int code)
        {
            exitCode = code;
            finished.countDown();
        }
    }

    private enum Example
    {
        DISCARD("discard", false, "drops what clients send"),
        PRINT("print", false, "prints what clients send"),
        ECHO("echo", false, "sends every byte back"),
        ECHO_LINE("echo-line", false, "echoes lines, 'bye' to quit"),
        TIME("time", false, "RFC 868 time, then hangs up"),
        TIME_CLIENT("time-client", true, ""),
        TIME_BEAT("time-beat", false, "RFC 868 time every second"),
        THROUGHPUT_CLIENT("throughput-client", true, ""),
        QUEUED_SERVER("queued-server", false, "answers '<length>: X' from worker threads"),
        COUNTER_CLIENT("counter-client", true, ""),
        BACKEND("backend", false, "answers '<port>:X'"),
        FANOUT("fanout", false, "forwards lines to back-ends"),
        TICK_TO_TRADE("tick-to-trade", true, ""),
        HTTPS_HEADERS("https-headers", true, "");

        private final String label;
        private final boolean client;
        private final String description;

        Example(final String label, final boolean client, final String description)
        {
            this.label = label;
            this.client = client;
            this.description = description;
        }
    }

    private static final class NameConverter implements ITypeConverter<Example>
    {
        @Override
        public Example convert(final String value)
        {
            for (final Example example : Example.values())
            {
                if (example.label.equals(value))
                {
                    return example;
                }
            }
            throw new TypeConversionException("unknown demo '" + value + "', expected one of " + new Names());
        }
    }

    private static final class AddressConverter implements ITypeConverter<InetSocketAddress>
    {
        @Override
        public InetSocketAddress convert(final String value)
        {
            final int colon = value.lastIndexOf(':');
            String host = colon > 0 ? value.substring(0, colon).trim() : "";
            if (host.startsWith("[") && host.endsWith("]"))
            {
                host = host.substring(1, host.length() - 1); // an IPv6 literal, [::1]:54321
            }
            final int port;
            try
            {
                port = colon > 0 ? Integer.parseInt(value.substring(colon + 1).trim()) : -1;
            }
            catch (final NumberFormatException ex)
            {
                throw new TypeConversionException("not HOST:PORT: '" + value + "'");
            }
            if (host.isEmpty() || port < 1 || port > 65535)
            {
                throw new TypeConversionException("not HOST:PORT with a port from 1 to 65535: '" + value + "'");
            }
            // Resolved by the client on each connect, so a back-end may come up after the front server.
            return InetSocketAddress.createUnresolved(host, port);
        }
    }

    private static final class Names implements Iterable<String>
    {
        @Override
        public Iterator<String> iterator()
        {
            final List<String> labels = new ArrayList<>();
            for (final Example example : Example.values())
            {
                labels.add(example.label);
            }
            return labels.iterator();
        }

        @Override
        public String toString()
        {
            return String.join(", ", this);
        }
    }
}
