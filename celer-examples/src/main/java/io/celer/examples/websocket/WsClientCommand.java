package io.celer.examples.websocket;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

import io.celer.examples.cli.ClientOutcome;
import io.celer.examples.cli.Foreground;
import io.celer.examples.cli.TrustStoreOptions;
import io.celer.examples.cli.UsageException;
import io.celer.reactor.Reactor;
import io.celer.tcp.CloseReason;
import io.celer.websocket.CloseCode;
import io.celer.websocket.Utf8Text;
import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketConfig;
import io.celer.websocket.WebSocketHandler;
import io.celer.websocket.client.WebSocketClient;
import io.celer.websocket.deflate.PerMessageDeflate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ./celer demo ws-client URL}: connects to a WebSocket server ({@code ws://} or {@code wss://}), prints
 * what arrives, sends each line of standard input as a text message, and exits when the server closes or, after
 * a close handshake, when standard input ends.
 */
@Command(
    name = "ws-client",
    description = "connects to a WebSocket URL (ws:// or wss://), prints the messages that arrive and sends each " +
        "line of standard input; exits on close or at the end of standard input")
public final class WsClientCommand implements Callable<Integer>
{
    @Parameters(paramLabel = "URL", description = "The server, ws://host[:port]/path or wss://...")
    private String url;

    @Mixin
    private TrustStoreOptions trust;

    @Option(names = "--no-deflate", description = "Do not offer permessage-deflate.")
    private boolean noDeflate;

    @Mixin
    private Foreground foreground;

    /**
     * Connects and runs until the connection ends.
     *
     * @return 0 if the handshake succeeded, else 1.
     * @throws InterruptedException if interrupted while waiting.
     */
    @Override
    public Integer call() throws InterruptedException
    {
        if (!url.startsWith("ws://") && !url.startsWith("wss://"))
        {
            throw new UsageException("URL must start with ws:// or wss://: " + url);
        }
        final PrintStream out = foreground.out();
        return foreground.run("ws-client", (reactor, running) ->
        {
            final ClientOutcome outcome = new ClientOutcome();
            final Printer printer = new Printer(out, reactor, outcome);
            final WebSocketClient client = new WebSocketClient(reactor, url, new WebSocketConfig(), printer)
                .compression(noDeflate ? null : new PerMessageDeflate(false, false));
            if (trust.given())
            {
                client.tls(trust.tlsConfig());
            }
            printer.client = client;
            running.finishWhen(outcome, client::isUpgraded, () -> "no WebSocket: " + client.failure());
            out.println("ws-client: connecting to " + url);
            client.open();
        });
    }

    /**
     * Prints the session's events and, once open, feeds it standard input's lines from a reader thread.
     */
    private static final class Printer implements WebSocketHandler
    {
        private final PrintStream out;
        private final Reactor reactor;
        private final ClientOutcome outcome;
        private volatile WebSocketClient client;

        Printer(final PrintStream out, final Reactor reactor, final ClientOutcome outcome)
        {
            this.out = out;
            this.reactor = reactor;
            this.outcome = outcome;
        }

        @Override
        public void opened(final WebSocket socket)
        {
            out.println("ws-client: open" + (client.compression() != null ? " with permessage-deflate" : "") +
                "; type lines to send them, end of input closes");
            final Thread reader = new Thread(() -> readLines(socket), "ws-client-stdin");
            reader.setDaemon(true);
            reader.start();
        }

        private void readLines(final WebSocket socket)
        {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)))
            {
                String line;
                while ((line = in.readLine()) != null)
                {
                    final String text = line;
                    reactor.execute(() -> send(socket, text));
                }
            }
            catch (final IOException ex)
            {
                out.println("ws-client: standard input failed: " + ex.getMessage());
            }
            reactor.execute(() -> socket.close(CloseCode.NORMAL, ""));
        }

        private void send(final WebSocket socket, final String text)
        {
            try
            {
                if (!socket.sendText(text))
                {
                    out.println("ws-client: not sent (closing, or the server is not reading)");
                }
            }
            catch (final IllegalArgumentException ex)
            {
                out.println("ws-client: " + ex.getMessage());
            }
        }

        @Override
        public void text(final WebSocket socket, final Utf8Text message)
        {
            out.println("< " + message);
        }

        @Override
        public void binary(final WebSocket socket, final ByteBuffer message)
        {
            out.println("< binary message of " + message.remaining() + " bytes");
        }

        @Override
        public void closing(final WebSocket socket, final int code, final Utf8Text reason)
        {
            out.println("ws-client: the server closes with " + code + (reason.length() > 0 ? " " + reason : ""));
        }

        @Override
        public void closed(final WebSocket socket, final int code)
        {
            out.println("ws-client: closed (" + code + ")");
            outcome.closed(client.isUpgraded() ? CloseReason.PEER_CLOSED : CloseReason.CONNECT_FAILED);
        }
    }
}
