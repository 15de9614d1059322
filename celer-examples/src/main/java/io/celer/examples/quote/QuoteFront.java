package io.celer.examples.quote;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.celer.http.HttpMethod;
import io.celer.http.client.HttpClient;
import io.celer.http.client.HttpClientConfig;
import io.celer.http.client.HttpClientException;
import io.celer.http.client.HttpClientResponse;
import io.celer.http.client.ResponseListener;
import io.celer.http.server.HttpHandler;
import io.celer.http.server.HttpRequest;
import io.celer.http.server.HttpResponse;
import io.celer.http.server.HttpServer;
import io.celer.http.server.HttpServerConfig;
import io.celer.reactor.Reactor;
import io.celer.tcp.TcpConfig;

/**
 * The CoralReactor articles' asynchronous HTTP server: each {@code GET /SYMBOL} goes on to a back-end over an {@link HttpClient}
 * (keep-alive, pipelined connections, the least busy first) and is answered with the back-end's answer when it
 * comes; the reactor never waits, so while back-ends are slow other requests keep flowing. A request on a lost
 * back-end connection is retried once on another back-end (GET is idempotent). When no back-end answers, the client hears
 * 502 (none reachable), 503 (too many pending) or 504 (no answer in time). Back-ends join and leave at run time
 * ({@link #addBackend}, {@link #removeBackend}, from any thread): one that leaves answers the quotes it carries
 * first. Garbage-free per request once warm.
 */
public final class QuoteFront implements HttpHandler, ResponseListener, AutoCloseable
{
    private static final byte[] BUSY =
        "no quote: too many quotes pending, try again\n".getBytes(StandardCharsets.US_ASCII);

    private final HttpServer server;
    private final HttpClient backends;
    // Whom to answer, by the tag of the back-end request; a stack of free tags. Pre-allocated: no garbage.
    private final HttpResponse[] waiting;
    private final int[] free;
    private int freeCount;

    /**
     * Settings of the front's link to its back-ends.
     *
     * @param connections           connections to each back-end.
     * @param maxPending            most quotes pending at once; more are answered 503.
     * @param responseTimeoutMillis how long a back-end may take; then the client hears 504.
     */
    public record Links(int connections, int maxPending, long responseTimeoutMillis)
    {
    }

    /**
     * A front, not yet listening; nothing connects until {@link #open()}.
     *
     * @param reactor  the reactor that runs the server and the back-end client.
     * @param port     the port, 0 for a free one.
     * @param tcp      where to listen, TLS.
     * @param backends the back-ends, each {@code host:port}.
     * @param links    how to reach them.
     * @throws IllegalArgumentException for no back-end, a malformed one, or bad settings.
     */
    public QuoteFront(
        final Reactor reactor, final int port, final TcpConfig tcp, final List<String> backends, final Links links)
    {
        this.backends = new HttpClient(reactor, new HttpClientConfig()
            .connectionsPerHost(links.connections())
            .maxPendingRequests(links.maxPending())
            .responseTimeoutMillis(links.responseTimeoutMillis())
            .maxReconnectDelayMillis(1_000), backends.toArray(String[]::new));
        this.waiting = new HttpResponse[links.maxPending()];
        this.free = new int[links.maxPending()];
        for (int i = 0; i < free.length; i++)
        {
            free[freeCount++] = free.length - 1 - i;
        }
        this.server = new HttpServer(reactor, port, new HttpServerConfig().tcp(tcp), this);
    }

    /**
     * Connects to the back-ends and starts listening, from any thread.
     *
     * @return the address it listens on.
     */
    public InetSocketAddress open()
    {
        backends.open();
        return server.open().localAddress();
    }

    /**
     * Adds a back-end, from any thread: it takes quotes once connected.
     *
     * @param backend {@code host:port}.
     * @throws IllegalArgumentException for a malformed one.
     */
    public void addBackend(final String backend)
    {
        backends.addHost(backend);
    }

    /**
     * Removes a back-end, from any thread: it takes no new quote and its connections close once the quotes
     * they carry are answered.
     *
     * @param backend {@code host:port}, as given.
     */
    public void removeBackend(final String backend)
    {
        backends.removeHost(backend);
    }

    /**
     * The back-ends now, from any thread.
     *
     * @return {@code host:port} of each.
     */
    public List<String> backends()
    {
        return backends.hosts();
    }

    @Override
    public void handle(final HttpRequest request, final HttpResponse response)
    {
        if (Symbols.refused(request, response))
        {
            return;
        }
        if (freeCount == 0)
        {
            response.status(503).header("Content-Type", "text/plain").body(BUSY);
            return;
        }
        final int tag = free[--freeCount];
        waiting[tag] = response;
        // A back-end lost with this on its wire: the client retries it once, on another back-end.
        backends.request(HttpMethod.GET, request.path()).tag(tag).send(this);
    }

    @Override
    public void response(final HttpClientResponse answer)
    {
        final HttpResponse response = take(answer.tag());
        if (answer.status() != 200)
        {
            response.status(answer.status() >= 500 ? 502 : answer.status());
        }
        response.header("Content-Type", "text/plain").body(answer.body());
    }

    @Override
    public void error(final HttpClientException failure)
    {
        final HttpResponse response = take(failure.tag());
        final int status;
        switch (failure.reason())
        {
            case RESPONSE_TIMEOUT:
                status = 504;
                break;
            case REJECTED:
                status = 503;
                break;
            default:
                status = 502;
                break;
        }
        response.status(status).header("Content-Type", "text/plain").body("no quote: " + failure.getMessage() + "\n");
    }

    /** Stops listening, closes every connection and fails what is pending, from any thread. */
    @Override
    public void close()
    {
        server.close();
        backends.close();
    }

    private HttpResponse take(final long tag)
    {
        final int index = (int)tag;
        final HttpResponse response = waiting[index];
        waiting[index] = null;
        free[freeCount++] = index;
        return response;
    }
}
