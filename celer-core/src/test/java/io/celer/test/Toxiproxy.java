package io.celer.test;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Assumptions;

/**
 * A Toxiproxy server of the test's own, on a free loopback port, and proxies through it to loopback servers; the
 * network faults tests (tag {@code faults}) put latency, jitter, slicing, blackholes and resets between real
 * peers with it. The binary is {@code $CELER_TOXIPROXY}, else the one {@code ./celer test} installs under the
 * user's cache; without it the test is skipped, saying so. Its REST API is spoken with the JDK's HTTP client: the
 * Java client library on Maven Central puts Gson and an automatic module on the tests' module path, which the
 * library modules' tests (compiled into their modules) cannot read.
 */
public final class Toxiproxy implements AutoCloseable
{
    /** The version {@code ./celer test} installs ({@code go install .../toxiproxy/v2/cmd/server@VERSION}). */
    public static final String VERSION = "v2.5.0";

    /** Which way a toxic acts: on the bytes to the server, or on those back to the client. */
    public enum Direction
    {
        /** Client to server. */
        UPSTREAM,
        /** Server to client. */
        DOWNSTREAM;

        String json()
        {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private static final AtomicInteger NAMES = new AtomicInteger();
    private static final Pattern LISTEN = Pattern.compile("\"listen\":\"[^\"]*:(\\d+)\"");

    private final Process process;
    private final URI api;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private Toxiproxy(final Process process, final int port)
    {
        this.process = process;
        this.api = URI.create("http://127.0.0.1:" + port);
    }

    /** One proxy: where to connect, and its toxics. */
    public final class Proxy
    {
        private final String name;
        private final int port;

        private Proxy(final String name, final int port)
        {
            this.name = name;
            this.port = port;
        }

        /**
         * Where clients connect.
         *
         * @return the port on 127.0.0.1.
         */
        public int port()
        {
            return port;
        }

        /**
         * Adds a toxic.
         *
         * @param toxic      its name, to remove it by.
         * @param type       {@code latency}, {@code bandwidth}, {@code slicer}, {@code timeout}, {@code reset_peer}...
         * @param direction  which bytes it acts on.
         * @param attributes its attributes as JSON members, e.g. {@code "latency":0,"jitter":50}.
         * @return this.
         * @throws IOException if the API refuses.
         */
        public Proxy toxic(final String toxic, final String type, final Direction direction, final String attributes)
            throws IOException
        {
            call("POST", "/proxies/" + name + "/toxics", "{\"name\":\"" + toxic + "\",\"type\":\"" + type +
                "\",\"stream\":\"" + direction.json() + "\",\"toxicity\":1.0,\"attributes\":{" + attributes + "}}");
            return this;
        }

        /**
         * Removes a toxic.
         *
         * @param toxic its name.
         * @throws IOException if the API refuses.
         */
        public void remove(final String toxic) throws IOException
        {
            call("DELETE", "/proxies/" + name + "/toxics/" + toxic, null);
        }
    }

    /**
     * Where the server binary is looked for: {@code $CELER_TOXIPROXY}, else the launcher's cache.
     *
     * @return the path, which may not exist.
     */
    public static Path binary()
    {
        final String given = System.getenv("CELER_TOXIPROXY");
        if (given != null && !given.isBlank())
        {
            return Path.of(given);
        }
        final String cache = System.getenv("XDG_CACHE_HOME");
        final Path base = cache != null && !cache.isBlank() ? Path.of(cache) :
            Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("celer").resolve("toxiproxy-" + VERSION).resolve("toxiproxy-server");
    }

    /**
     * Starts a server, or skips the test when there is no binary.
     *
     * @return the running server.
     * @throws Exception if it does not start.
     */
    public static Toxiproxy start() throws Exception
    {
        final Path binary = binary();
        Assumptions.assumeTrue(Files.isExecutable(binary), "no toxiproxy-server at " + binary +
            ": ./celer test installs it (go install github.com/Shopify/toxiproxy/v2/cmd/server@" + VERSION +
            "), or set CELER_TOXIPROXY to one");
        final int port;
        try (ServerSocket free = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress()))
        {
            port = free.getLocalPort();
        }
        final Process process = new ProcessBuilder(binary.toString(), "-host", "127.0.0.1", "-port",
            Integer.toString(port)).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        final Toxiproxy toxiproxy = new Toxiproxy(process, port);
        try
        {
            Await.until("toxiproxy's API up", () ->
            {
                try
                {
                    toxiproxy.call("GET", "/version", null);
                    return true;
                }
                catch (final IOException notYet)
                {
                    if (!process.isAlive())
                    {
                        throw new IllegalStateException("toxiproxy-server exited with " + process.exitValue());
                    }
                    return false;
                }
            }, Duration.ofSeconds(20));
        }
        catch (final RuntimeException | Error ex)
        {
            toxiproxy.close();
            throw ex;
        }
        return toxiproxy;
    }

    /**
     * A proxy on a free loopback port to a loopback server.
     *
     * @param upstreamPort the server's port on 127.0.0.1.
     * @return the proxy; {@link #port(Proxy)} is where to connect.
     * @throws IOException if the API refuses.
     */
    public Proxy proxy(final int upstreamPort) throws IOException
    {
        final String name = "celer-" + NAMES.incrementAndGet();
        final String created = call("POST", "/proxies", "{\"name\":\"" + name +
            "\",\"listen\":\"127.0.0.1:0\",\"upstream\":\"127.0.0.1:" + upstreamPort + "\",\"enabled\":true}");
        final Matcher listen = LISTEN.matcher(created);
        if (!listen.find())
        {
            throw new IOException("no listen address in " + created);
        }
        return new Proxy(name, Integer.parseInt(listen.group(1)));
    }

    private String call(final String method, final String path, final String json) throws IOException
    {
        final HttpRequest request = HttpRequest.newBuilder(api.resolve(path)).timeout(Duration.ofSeconds(10))
            .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json))
            .header("Content-Type", "application/json").build();
        final HttpResponse<String> response;
        try
        {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", ex);
        }
        if (response.statusCode() / 100 != 2)
        {
            throw new IOException(method + " " + path + ": " + response.statusCode() + " " + response.body());
        }
        return response.body();
    }

    /** Stops the server and every proxy with it. */
    @Override
    public void close() throws InterruptedException
    {
        process.destroy();
        if (!process.waitFor(5, TimeUnit.SECONDS))
        {
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }
}
