package io.celer.bench.http.peer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import org.HdrHistogram.Histogram;

import io.celer.bench.peer.ChildProcess;
import io.celer.bench.peer.IoThreadProbe;
import io.celer.bench.peer.PingSession;
import io.celer.bench.peer.ReactorCounts;
import io.celer.bench.peer.server.ReactorIdle;
import io.celer.http.HttpMethod;
import io.celer.http.client.HttpClient;
import io.celer.http.client.HttpClientConfig;
import io.celer.http.client.HttpClientException;
import io.celer.http.client.HttpClientResponse;
import io.celer.http.client.ResponseListener;
import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorConfig;
import io.celer.tcp.TcpConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The HTTP ping-pong client: Celer's {@link HttpClient} on one reactor that waits in the selector when idle (or as
 * {@code --idle} says), {@code --connections}
 * keep-alive connections without pipelining, each sending the next {@code GET /plaintext} when the previous
 * response arrives; every request's time from send to whole response goes to an HdrHistogram, without garbage.
 *
 * <p>It prints {@code connecting}, then {@code measuring} when the warm-up is over (the harness then tells the
 * server {@code begin}), and at the end writes the measured histogram to {@code --histogram} and prints
 * {@code stats side=client gc= allocated= messages= jdk= nanos= failed=}.
 */
@Command(name = "celer-http-ping", mixinStandardHelpOptions = true,
    description = "HTTP ping-pong client: Celer's HttpClient, keep-alive connections, one request in flight each.")
public final class CelerHttpPingClient implements Callable<Integer>, ResponseListener
{
    private static final String PATH = "/plaintext";
    private static final int CONNECT_SECONDS = 45;

    @Option(names = "--port", required = true, description = "The server's port on 127.0.0.1.")
    int port;

    @Option(names = "--cpu", defaultValue = "-1", description = "CPU the reactor pins itself to (-1: none).")
    int cpu;

    @Option(names = "--connections", defaultValue = "1", description = "Keep-alive connections, each with one "
        + "request in flight.")
    int connections;

    @Option(names = "--warmup-seconds", defaultValue = "2", description = "Seconds of requests not measured.")
    int warmupSeconds;

    @Option(names = "--seconds", defaultValue = "5", description = "Seconds of measured requests.")
    int seconds;

    @Option(names = "--idle", defaultValue = "select",
        description = "The reactor when idle: select (wait in the selector), spin, yield or backoff.")
    String idle;

    @Option(names = "--histogram", required = true, description = "File for the measured histogram, compressed.")
    Path histogramFile;

    private final Histogram histogram = new Histogram(PingSession.HIGHEST_TRACKABLE_NANOS, 3);
    private final IoThreadProbe probe = new IoThreadProbe("client");
    private HttpClient client;
    private boolean stopping;
    private long responses;
    private long failed;
    private long measuredNanos;

    /**
     * Runs the client.
     *
     * @param args its options; see {@code --help}.
     */
    public static void main(final String[] args)
    {
        System.exit(new CommandLine(new CelerHttpPingClient()).execute(args));
    }

    @Override
    public Integer call() throws Exception
    {
        // The process shares its CPU with its JIT and GC threads, and the machine's other work may come to it too.
        // A reactor that yields there gives its turn away at every idle cycle: Linux's EEVDF scheduler (6.6 on)
        // pushes a yielding task's deadline a slice on, and newer kernels also charge it the rest of its slice,
        // so whatever else is runnable on the CPU runs first while responses wait. One that sleeps in epoll_wait,
        // as wrk does, is woken by the next response.
        final Reactor reactor = new Reactor(ReactorIdle.of(idle).applyTo(new ReactorConfig()
            .name("celer-http-client").cpu(cpu).daemon(true))).start();
        // Sized for 10,000 connections: a response head fits 1 KiB, a request 256 bytes.
        final HttpClientConfig config = new HttpClientConfig()
            .connectionsPerHost(connections)
            .maxPipelineDepth(1)
            // A response's exchange is released after its listener returns: the next request, sent from the
            // listener, needs a second one.
            .maxPendingRequests(2 * connections)
            .maxRequestSize(256)
            .maxResponseHeadSize(1024)
            .readBufferSize(4096)
            .tcp(new TcpConfig().writeBufferSize(4096).socketSendBufferSize(64 * 1024)
                .socketReceiveBufferSize(64 * 1024));
        client = new HttpClient(reactor, config, "127.0.0.1:" + port).open();
        ChildProcess.report("connecting");
        // Every connection open first, so that the warm-up warms requests rather than thousands of connects;
        // connections still missing then connect during the warm-up.
        ReactorCounts.await(reactor, client::openConnections, connections, CONNECT_SECONDS);
        reactor.call(() ->
        {
            for (int i = 0; i < connections; i++)
            {
                send();
            }
        });
        Thread.sleep(warmupSeconds * 1000L);
        final long[] begin = new long[1];
        reactor.call(() ->
        {
            histogram.reset();
            responses = 0;
            failed = 0;
            begin[0] = System.nanoTime();
            probe.begin();
        });
        ChildProcess.report("measuring");
        Thread.sleep(seconds * 1000L);
        reactor.call(() ->
        {
            probe.end(responses);
            measuredNanos = System.nanoTime() - begin[0];
            stopping = true;
        });
        client.close();
        reactor.stop();
        write();
        ChildProcess.report(probe.statsLine(measuredNanos) + " failed=" + failed);
        return 0;
    }

    private void send()
    {
        client.request(HttpMethod.GET, PATH).tag(System.nanoTime()).send(this);
    }

    /**
     * Records the request's time and sends the next on the same turn; on the reactor thread.
     *
     * @param response the response, valid during the call.
     */
    @Override
    public void response(final HttpClientResponse response)
    {
        final long now = System.nanoTime();
        if (response.status() == 200)
        {
            histogram.recordValue(Math.min(PingSession.HIGHEST_TRACKABLE_NANOS, Math.max(1, now - response.tag())));
            responses++;
        }
        else
        {
            failed++;
        }
        if (!stopping)
        {
            send();
        }
    }

    /**
     * Counts the failure and sends another request, so the load stays; on the reactor thread.
     *
     * @param failure why.
     */
    @Override
    public void error(final HttpClientException failure)
    {
        // Requests failed by the close at the end are not the server's.
        if (!stopping)
        {
            failed++;
            send();
        }
    }

    private void write() throws IOException
    {
        final ByteBuffer encoded = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        final int length = histogram.encodeIntoCompressedByteBuffer(encoded);
        Files.write(histogramFile, java.util.Arrays.copyOf(encoded.array(), length));
    }
}
