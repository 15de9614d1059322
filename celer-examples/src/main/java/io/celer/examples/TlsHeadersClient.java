package io.celer.examples;

import java.io.PrintStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.BackoffIdleStrategy;

import io.celer.examples.cli.ClientOutcome;
import io.celer.framing.LineFraming;
import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorConfig;
import io.celer.tcp.Connection;
import io.celer.tcp.Handler;
import io.celer.tcp.TcpClient;
import io.celer.tcp.TcpConfig;
import io.celer.tls.TlsConfig;

/**
 * Prints an HTTPS server's response headers: connects with TLS, sends {@code GET / HTTP/1.0} with a
 * {@code Host} header, prints each header line and closes at the empty line that ends them.
 *
 * <p>The server's certificate chain is checked against a trust store (the JDK's own unless the
 * {@link TlsConfig} names another) and its names against the host: nothing is downloaded or trusted
 * unchecked. A line framing of at most {@value #MAX_LINE} bytes cuts the response into lines.
 */
public final class TlsHeadersClient implements Handler
{
    /** The longest header line accepted. */
    public static final int MAX_LINE = 16 * 1024;

    private final TcpClient client;
    private final ClientOutcome outcome = new ClientOutcome();
    private final String host;
    private final int port;
    private final PrintStream out;
    private final List<String> headers = new ArrayList<>();

    /**
     * A client that checks the server against the JDK's trust store and prints to standard output.
     *
     * @param reactor the reactor that runs it.
     * @param host    the server's host name, also sent as {@code Host} and checked against its certificate.
     * @param port    the server's port, 443 for HTTPS.
     */
    public TlsHeadersClient(final Reactor reactor, final String host, final int port)
    {
        this(reactor, host, port, new TlsConfig(), System.out);
    }

    /**
     * A client.
     *
     * @param reactor the reactor that runs it.
     * @param host    the server's host name, also sent as {@code Host} and checked against its certificate.
     * @param port    the server's port.
     * @param tls     the TLS settings: the trust store, say.
     * @param out     where the header lines go.
     */
    public TlsHeadersClient(final Reactor reactor, final String host, final int port, final TlsConfig tls,
        final PrintStream out)
    {
        this.host = host;
        this.port = port;
        this.out = out;
        client = new TcpClient(reactor, host, port,
            new TcpConfig().framing(() -> new LineFraming(MAX_LINE, true)).transport(tls), outcome.recording(this));
    }

    /**
     * Starts connecting, from any thread.
     *
     * @return this.
     */
    public TlsHeadersClient open()
    {
        client.open();
        return this;
    }

    /**
     * Closes the connection, from any thread; the client is then done.
     */
    public void close()
    {
        client.close();
    }

    /**
     * Sends the request once TLS is up.
     */
    @Override
    public void opened(final Connection connection)
    {
        connection.write("GET / HTTP/1.0");
        connection.write(port == 443 ? "Host: " + host : "Host: " + host + ":" + port);
        connection.write("");
        connection.flush();
    }

    /**
     * Prints a header line, or closes at the empty line after the headers.
     */
    @Override
    public void message(final Connection connection, final ByteBuffer line)
    {
        if (!line.hasRemaining())
        {
            connection.close();
            return;
        }
        final byte[] bytes = new byte[line.remaining()];
        line.get(bytes);
        synchronized (this)
        {
            headers.add(new String(bytes, StandardCharsets.ISO_8859_1));
        }
        out.write(bytes, 0, bytes.length);
        out.println();
        out.flush();
    }

    /**
     * How the connection ended, and a callback for when it does.
     *
     * @return the outcome, readable from any thread.
     */
    public ClientOutcome outcome()
    {
        return outcome;
    }

    /**
     * The header lines received so far, the status line first; readable from any thread.
     *
     * @return a copy.
     */
    public synchronized List<String> headers()
    {
        return List.copyOf(headers);
    }

    /**
     * Prints the response headers of an HTTPS URL, checking the server against the JDK's trust store (or the
     * one named by {@code -Djavax.net.ssl.trustStore}).
     *
     * @param args {@code [https://host[:port]/]}, {@code https://www.google.com/} by default.
     * @throws InterruptedException if interrupted while waiting.
     */
    public static void main(final String[] args) throws InterruptedException
    {
        final URI url = URI.create(args.length > 0 ? args[0] : "https://www.google.com/");
        if (!"https".equalsIgnoreCase(url.getScheme()) || url.getHost() == null)
        {
            System.err.println("usage: TlsHeadersClient [https://host[:port]/]");
            System.exit(2);
        }
        final int port = url.getPort() > 0 ? url.getPort() : 443;
        final Reactor reactor = new Reactor(new ReactorConfig().name("tls-headers")
            .idleStrategy(new BackoffIdleStrategy()).daemon(true)).start();
        try
        {
            final TlsHeadersClient client = new TlsHeadersClient(reactor, url.getHost(), port).open();
            if (!client.outcome().awaitDone(Duration.ofSeconds(30)))
            {
                System.err.println("tls-headers: no answer from " + url.getHost() + ":" + port + " within 30 s");
                System.exit(1);
            }
            if (client.headers().isEmpty())
            {
                final Throwable failure = client.outcome().failure();
                System.err.println("tls-headers: no headers (" + client.outcome().closeReason() + ")" +
                    (failure == null ? "" : ": " + failure.getMessage()));
                System.exit(1);
            }
        }
        finally
        {
            reactor.stop();
        }
    }
}
