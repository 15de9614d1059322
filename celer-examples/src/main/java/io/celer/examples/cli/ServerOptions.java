package io.celer.examples.cli;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorGroup;
import io.celer.tcp.Handler;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * A TCP server demo's options (where to listen, TLS, the reactor) and its run in the foreground until
 * stopped. A picocli mixin: {@code @Mixin ServerOptions server;} then {@code return server.serve(...)} from
 * the command's {@code call()}.
 */
public final class ServerOptions
{
    /** The port the demos use by default. */
    public static final int DEFAULT_PORT = 54321;

    /** Where servers listen by default: every local address. */
    public static final String ANY_ADDRESS = "0.0.0.0";

    /**
     * Opens a server demo.
     */
    @FunctionalInterface
    public interface Server
    {
        /**
         * Opens the server.
         *
         * @param reactor the demo's reactor, running.
         * @param running the run, to add a stop task.
         * @return the address it listens on.
         */
        InetSocketAddress open(Reactor reactor, Running running);
    }

    /**
     * Opens a server demo on every reactor of a group.
     */
    @FunctionalInterface
    public interface GroupServer
    {
        /**
         * Opens the server.
         *
         * @param group   the demo's reactors, running.
         * @param running the run, to add a stop task.
         * @return the address it listens on.
         */
        InetSocketAddress open(ReactorGroup group, Running running);
    }

    @Option(names = "--host", paramLabel = "H", defaultValue = ANY_ADDRESS,
        description = "The address to listen on (default ${DEFAULT-VALUE}).")
    private String host;

    @Option(names = "--port", paramLabel = "N", defaultValue = "" + DEFAULT_PORT,
        description = "The port to listen on (default ${DEFAULT-VALUE}); 0 picks a free one.")
    private int port;

    @Mixin
    private ServerTlsOptions tls;

    @Mixin
    private Foreground foreground;

    @Spec(Spec.Target.MIXEE)
    private CommandSpec command;

    /**
     * Where the demo prints.
     *
     * @return the output stream.
     */
    public PrintStream out()
    {
        return foreground.out();
    }

    /**
     * The port to listen on.
     *
     * @return the port, 0 for a free one.
     */
    public int port()
    {
        return port;
    }

    /**
     * The settings the options give: where to listen and TLS; the demo adds its framing to a copy.
     *
     * @return new settings.
     */
    public TcpConfig config()
    {
        return tls.apply(new TcpConfig().bindAddress(host));
    }

    /**
     * Runs a {@link TcpServer} of one handler until stopped.
     *
     * @param handler the example.
     * @return the exit code: 0 once stopped, 1 if it could not start.
     * @throws InterruptedException if interrupted while waiting.
     */
    public int serve(final Handler handler) throws InterruptedException
    {
        return serve((reactor, running) -> new TcpServer(reactor, port, config(), handler).open().localAddress());
    }

    /**
     * Runs a {@link TcpServer} on the reactors the options ask for, a handler of its own on each, until stopped.
     *
     * @param reactors the reactor options.
     * @param config   the handler's settings (a framing) on top of the options' ones.
     * @param handlers makes a reactor's handler.
     * @return the exit code: 0 once stopped, 1 if it could not start.
     * @throws InterruptedException if interrupted while waiting.
     */
    public int serve(final ReactorOptions reactors, final UnaryOperator<TcpConfig> config,
        final Supplier<? extends Handler> handlers) throws InterruptedException
    {
        return serve(reactors, (group, running) ->
            new TcpServer(group, port, config.apply(config()), reactor -> handlers.get()).open().localAddress());
    }

    /**
     * Checks the options, opens the server on one reactor and runs it until stopped (Ctrl-C).
     *
     * @param server  opens the server on the demo's reactor.
     * @return the exit code: 0 once stopped, 1 if it could not start.
     * @throws InterruptedException if interrupted while waiting.
     * @throws UsageException       if the options do not go together.
     */
    public int serve(final Server server) throws InterruptedException
    {
        return serve(ReactorOptions.ONE, (group, running) -> server.open(group.reactor(0), running));
    }

    /**
     * Checks the options, opens the server on the reactors the options ask for and runs it until stopped
     * (Ctrl-C): the one way every server demo runs.
     *
     * @param reactors the reactor options.
     * @param server   opens the server on the demo's reactors.
     * @return the exit code: 0 once stopped, 1 if it could not start.
     * @throws InterruptedException if interrupted while waiting.
     * @throws UsageException       if the options do not go together.
     */
    public int serve(final ReactorOptions reactors, final GroupServer server) throws InterruptedException
    {
        final String name = command.name();
        if (port < 0 || port > 65535)
        {
            throw new UsageException("--port must be between 0 and 65535 for " + name + ": " + port);
        }
        tls.validate(name);
        return foreground.run(name, reactors, (started, running) ->
        {
            final InetSocketAddress address = server.open(started, running);
            running.address(address);
            // The address as given: a wildcard bind reads back as the IPv6 "::" on a dual-stack host.
            foreground.out().println(name + ": listening on " + host + ":" + address.getPort() +
                (tls.enabled() ? " over TLS" : "") +
                (started.size() > 1 ? " on " + started.size() + " reactors" : "") + " (" +
                command.usageMessage().description()[0] + "); Ctrl-C stops it");
        });
    }
}
