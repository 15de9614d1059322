package io.celer.http;

import java.nio.charset.StandardCharsets;

import io.celer.reactor.Reactor;
import io.celer.test.Reactors;

/**
 * A reactor and an HTTP server on an ephemeral loopback port, with the routes most tests use.
 */
final class TestServer implements AutoCloseable
{
    static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.US_ASCII);

    final Reactors reactors = new Reactors();
    final Reactor reactor;
    final HttpServer server;

    TestServer(final HttpServerConfig config, final HttpHandler handler)
    {
        reactor = reactors.start("http-test");
        config.tcp().bindAddress("127.0.0.1");
        server = new HttpServer(reactor, 0, config, handler).open();
    }

    TestServer(final HttpServerConfig config)
    {
        this(config, routes().build());
    }

    TestServer()
    {
        this(new HttpServerConfig());
    }

    /** GET /plaintext, POST /echo (body back, or streamed length), GET /ok. */
    static Router.Builder routes()
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
    static byte[] letters(final int length)
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

    int port()
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
