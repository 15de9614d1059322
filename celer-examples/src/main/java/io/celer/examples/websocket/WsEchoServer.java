package io.celer.examples.websocket;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;

import io.celer.http.server.HttpHandler;
import io.celer.http.server.HttpServer;
import io.celer.http.server.HttpServerConfig;
import io.celer.http.server.Router;
import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorGroup;
import io.celer.tcp.TcpConfig;
import io.celer.websocket.WebSocketConfig;
import io.celer.websocket.deflate.PerMessageDeflate;
import io.celer.websocket.server.WebSocketUpgrade;

/**
 * The ws-echo demo: an HTTP server whose every path upgrades to a WebSocket that echoes text and binary
 * messages (permessage-deflate accepted), with limits that fit the Autobahn cases (16 MiB messages and frames,
 * any number of fragments), and a page at {@code /} whose script echoes through it, or with
 * {@code ?selftest=N} checks N echoes of mixed messages and sends its verdict back.
 */
public final class WsEchoServer
{
    /** The largest message and frame echoed, as the Autobahn cases need: 16 MiB. */
    public static final int MAX_MESSAGE = 16 * 1024 * 1024;

    /**
     * Each connection's write buffer: a message up to this size (less a frame header) is echoed in one frame,
     * compressed when permessage-deflate was agreed (the Autobahn compression cases send up to 128 KiB); larger
     * ones go back as uncompressed fragments while the peer reads.
     */
    public static final int WRITE_BUFFER = 256 * 1024;

    private static final byte[] PAGE = page();

    private WsEchoServer()
    {
    }

    /**
     * The WebSocket settings the demo uses.
     *
     * @return new settings.
     */
    public static WebSocketConfig webSocketConfig()
    {
        return new WebSocketConfig().maxMessageLength(MAX_MESSAGE).maxFrameLength(MAX_MESSAGE);
    }

    /**
     * Opens the server on one reactor.
     *
     * @param reactor the reactor.
     * @param port    the port, 0 for any.
     * @param tcp     where to listen and TLS.
     * @param out     where self-test verdicts are printed.
     * @return the open server.
     */
    public static HttpServer open(final Reactor reactor, final int port, final TcpConfig tcp, final PrintStream out)
    {
        return new HttpServer(reactor, port, config(tcp), application(out)).open();
    }

    /**
     * Opens the server on every reactor of a group.
     *
     * @param group the reactors.
     * @param port  the port, 0 for any.
     * @param tcp   where to listen and TLS.
     * @param out   where self-test verdicts are printed.
     * @return the open server.
     */
    public static HttpServer open(final ReactorGroup group, final int port, final TcpConfig tcp,
        final PrintStream out)
    {
        return new HttpServer(group, port, config(tcp), reactor -> application(out)).open();
    }

    private static HttpServerConfig config(final TcpConfig tcp)
    {
        return new HttpServerConfig().tcp(tcp.copy().writeBufferSize(WRITE_BUFFER));
    }

    /** The page at {@code /} and the upgrade on every other path. */
    private static HttpHandler application(final PrintStream out)
    {
        final Router pages = Router.builder()
            .get("/", (req, res) -> res.header("Content-Type", "text/html; charset=utf-8")
                .header("Cache-Control", "no-store").body(PAGE))
            .build();
        return new WebSocketUpgrade(webSocketConfig(), new EchoSocketHandler(out))
            .compression(new PerMessageDeflate(false, false))
            .otherwise(pages);
    }

    private static byte[] page()
    {
        try (InputStream in = WsEchoServer.class.getResourceAsStream("echo.html"))
        {
            if (in == null)
            {
                throw new IllegalStateException("echo.html is missing from the class path");
            }
            return in.readAllBytes();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
