package io.celer.examples.http;

import java.nio.ByteBuffer;

import io.celer.http.HttpMethod;
import io.celer.http.HttpStatus;
import io.celer.http.server.HttpRequest;
import io.celer.http.server.HttpResponse;
import io.celer.http.server.HttpServerConfig;
import io.celer.http.server.Router;
import io.celer.tcp.TcpConfig;

/**
 * The {@code http-timeblock} server's one route, {@code GET /gettimeblock}: a fresh {@link TimeBlockPage}, then
 * the connection closes, as the paper's servers did ({@code Connection: close} on every response, 404 and 405
 * too).
 *
 * <p>The page is written into one buffer per server, reused by every request, and goes from there to the
 * response: no garbage per page. One instance serves one reactor.
 */
public final class TimeBlockRoutes
{
    private final ByteBuffer page = ByteBuffer.allocate(TimeBlockPage.LENGTH);

    /**
     * The server's settings on top of the command line's TCP ones: the defaults.
     *
     * @param tcp where to listen, TLS.
     * @return the settings.
     */
    public static HttpServerConfig config(final TcpConfig tcp)
    {
        return new HttpServerConfig().tcp(tcp);
    }

    /**
     * The routes.
     *
     * @return a router for one server.
     */
    public Router router()
    {
        return Router.builder()
            .exact(null, "/gettimeblock", this::timeBlock)
            .notFound((request, response) -> response.status(HttpStatus.NOT_FOUND).closeConnection().end())
            .build();
    }

    private void timeBlock(final HttpRequest request, final HttpResponse response)
    {
        if (request.method() != HttpMethod.GET && request.method() != HttpMethod.HEAD)
        {
            response.status(HttpStatus.METHOD_NOT_ALLOWED).header("Allow", "GET, HEAD").closeConnection().end();
            return;
        }
        page.clear();
        TimeBlockPage.write(page);
        page.flip();
        response.header("Content-Type", "text/html").closeConnection().body(page);
    }
}
