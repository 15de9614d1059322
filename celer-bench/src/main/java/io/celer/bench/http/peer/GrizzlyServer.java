package io.celer.bench.http.peer;

import java.io.IOException;

import org.glassfish.grizzly.http.server.HttpHandler;
import org.glassfish.grizzly.http.server.HttpServer;
import org.glassfish.grizzly.http.server.NetworkListener;
import org.glassfish.grizzly.http.server.Request;
import org.glassfish.grizzly.http.server.Response;
import org.glassfish.grizzly.http.util.Header;
import org.glassfish.grizzly.http.util.HttpStatus;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import io.celer.bench.peer.server.PeerMain;
import io.celer.bench.peer.server.PeerOptions;
import io.celer.bench.peer.server.PeerServer;
import io.celer.examples.http.TimeBlockPage;

/**
 * The 2009 paper's Grizzly server on today's Grizzly: its HTTP server with its default selector and worker
 * threads and one handler. {@code --cpu} is not used: the harness pins the process with taskset.
 */
@Command(name = "grizzly-http", mixinStandardHelpOptions = true,
    description = "HTTP peer: Grizzly's HTTP server with one handler.")
public final class GrizzlyServer implements PeerServer
{
    private static final String SERVER = "Grizzly";
    private static final byte[] HELLO = "Hello, World!".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    @Mixin
    PeerOptions options = new PeerOptions();

    private final ThreadsProbe probe = new ThreadsProbe();
    private HttpServer server;

    /**
     * Runs the peer.
     *
     * @param args {@code --port=P}; stdin takes {@code begin}, {@code stats}, {@code stop}.
     */
    public static void main(final String[] args)
    {
        PeerMain.run(new GrizzlyServer(), args);
    }

    @Override
    public Serving start() throws IOException
    {
        server = new HttpServer();
        final NetworkListener listener = new NetworkListener("bench", "127.0.0.1", options.port());
        server.addListener(listener);
        server.getServerConfiguration().addHttpHandler(new Handler(), "/");
        server.start();
        return new Serving(listener.getPort(), probe);
    }

    @Override
    public void stop()
    {
        server.shutdownNow();
    }

    /**
     * Answers both routes on Grizzly's worker threads.
     */
    private final class Handler extends HttpHandler
    {
        private final ThreadLocal<byte[]> pages = ThreadLocal.withInitial(() -> new byte[TimeBlockPage.LENGTH]);

        @Override
        public void service(final Request request, final Response response) throws IOException
        {
            probe.served();
            response.setHeader(Header.Server, SERVER);
            response.setHeader(Header.Date, HttpDate.now());
            final String path = request.getRequestURI();
            if ("/plaintext".equals(path))
            {
                response.setContentType("text/plain");
                response.setContentLength(HELLO.length);
                response.getOutputStream().write(HELLO);
            }
            else if ("/gettimeblock".equals(path))
            {
                final byte[] page = pages.get();
                TimeBlockPage.write(page, 0);
                response.setContentType("text/html");
                response.setContentLength(page.length);
                response.setHeader(Header.Connection, "close");
                response.getOutputStream().write(page);
            }
            else
            {
                response.setStatus(HttpStatus.NOT_FOUND_404);
                response.setContentLength(0);
            }
        }
    }
}
