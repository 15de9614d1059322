package io.celer.examples.cli;

import java.io.PrintStream;
import java.net.InetSocketAddress;

import io.celer.tcp.TcpConfig;
import io.celer.tls.TlsConfig;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * A TCP client demo's options (the server, TLS, the reactor) and its run until done. A picocli mixin:
 * {@code @Mixin ClientOptions client;} then {@code return client.connect(...)} from the command's
 * {@code call()}.
 */
public final class ClientOptions
{
    /** The server clients connect to by default. */
    public static final String DEFAULT_HOST = "localhost";

    @Option(names = "--host", paramLabel = "H", defaultValue = DEFAULT_HOST,
        description = "The server to connect to (default ${DEFAULT-VALUE}).")
    private String host;

    @Option(names = "--port", paramLabel = "N", defaultValue = "" + ServerOptions.DEFAULT_PORT,
        description = "The server's port (default ${DEFAULT-VALUE}).")
    private int port;

    @Mixin
    private ClientTlsOptions tls;

    @Mixin
    private Foreground foreground;

    @Spec(Spec.Target.MIXEE)
    private CommandSpec command;

    private boolean alwaysTls;

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
     * The server's host name or address.
     *
     * @return the host.
     */
    public String host()
    {
        return host;
    }

    /**
     * The server's port.
     *
     * @return the port.
     */
    public int port()
    {
        return port;
    }

    /**
     * The settings the options give (TLS, if asked); the demo adds its framing to a copy.
     *
     * @return new settings.
     */
    public TcpConfig config()
    {
        return tls.apply(new TcpConfig(), alwaysTls);
    }

    /**
     * The TLS settings the options give, for a client that always speaks TLS.
     *
     * @return new settings.
     */
    public TlsConfig tlsConfig()
    {
        return tls.tlsConfig();
    }

    /**
     * Checks the options, opens the client and waits until it is done or stopped.
     *
     * @param client  opens the client on the demo's reactor; ends the run with
     *                {@link Running#finishWhen}.
     * @return the exit code: 0 if the client did its job, 1 if not or if it could not start.
     * @throws InterruptedException if interrupted while waiting.
     * @throws UsageException       if the options do not go together.
     */
    public int connect(final Foreground.Start client) throws InterruptedException
    {
        final String name = command.name();
        if (port < 1 || port > 65535)
        {
            throw new UsageException("--port must be between 1 and 65535 for " + name + ": " + port);
        }
        tls.validate(alwaysTls);
        return foreground.run(name, (started, running) ->
        {
            running.address(InetSocketAddress.createUnresolved(host, port));
            foreground.out().println(name + ": connecting to " + host + ":" + port +
                (tls.enabled() || alwaysTls ? " over TLS" : ""));
            client.start(started, running);
        });
    }

    /**
     * As {@link #connect}, for a client that speaks TLS with or without {@code --tls}.
     *
     * @param client  opens the client.
     * @return the exit code.
     * @throws InterruptedException if interrupted while waiting.
     */
    public int connectOverTls(final Foreground.Start client) throws InterruptedException
    {
        alwaysTls = true;
        return connect(client);
    }
}
