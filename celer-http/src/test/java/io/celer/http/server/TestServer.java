package io.celer.http.server;

import java.nio.charset.StandardCharsets;

import io.celer.reactor.Reactor;
import io.celer.test.Reactors;

/**
 * A reactor and an HTTP server on an ephemeral loopback port, with the routes most tests use; the client's
 * tests talk to it too.
 */
public final class TestServer implements AutoCloseable
{
    /** The body of GET /plaintext. */
    public static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.US_ASCII);

    final Reactors reactors = new Reactors();
    /** The reactor the server runs on. */
    public final Reactor reactor;
    /** The server. */
    public final HttpServer server;

    /**
     * A server with these settings and this application.
     *
     * @param config  the settings; bound to the loopback address.
     * @param handler the application.
     */
    public TestServer(final HttpServerConfig config, final HttpHandler handler)
    {
        reactor = reactors.start("http-test");
        config.tcp().bindAddress("127.0.0.1");
        server = new HttpServer(reactor, 0, config, handler).open();
    }

    /**
     * A server with these settings and the {@link #routes()}.
     *
     * @param config the settings.
     */
    public TestServer(final HttpServerConfig config)
    {
        this(config, routes().build());
    }

    /**
     * A server with default settings and the {@link #routes()}.
     */
    public TestServer()
    {
        this(new HttpServerConfig());
    }

    /**
     * GET /plaintext, POST /echo (body back, or streamed length), GET /ok.
     *
     * @return a builder with these routes, to add more.
     */
    public static Router.Builder routes()
    {
        return Router.builder()
            .get("/plaintext", (req, res) -> res.header("Content-Type", "text/plain").body(HELLO))
            .get("/ok", (req, res) -> res.body("ok"))
            .post("/echo", TestServer::echo);
    }

    /**
     * A body of the letters a to z over and over, so that a byte out of place shows.
     *
     * @param length bytes.
     * @return the body.
     */
    public static byte[] letters(final int length)
    {
        final byte[] body = new byte[length];
        for (int i = 0; i < length; i++)
        {
            body[i] = (byte)('a' + i % 26);
        }
        return body;
    }

    private static void echo(final HttpRequest request, final HttpResponse response)
    {
        if (request.isBodyComplete())
        {
            response.header("Content-Type", "application/octet-stream").body(request.body());
            return;
        }
        final long[] total = new long[1];
        request.bodyListener(new BodyListener()
        {
            @Override
            public void body(final java.nio.ByteBuffer data)
            {
                total[0] += data.remaining();
                data.position(data.limit());
            }

            @Override
            public void ended(final HttpResponse res)
            {
                res.body("streamed " + total[0]);
            }
        });
    }

    /**
     * The port the server listens on.
     *
     * @return the port.
     */
    public int port()
    {
        return server.port();
    }

    @Override
    public void close()
    {
        server.close();
        reactors.close();
    }
}
