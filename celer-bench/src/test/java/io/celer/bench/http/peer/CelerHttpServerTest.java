package io.celer.bench.http.peer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.util.concurrent.TimeUnit;

import com.sun.management.ThreadMXBean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.celer.bench.peer.server.PeerMain;
import io.celer.bench.peer.server.PeerServer;

/**
 * {@link CelerHttpServer} answers the plaintext and time-block routes as the HTTP benchmarks expect, on one loop
 * or two, and by default sleeps in the selector while idle, as Netty's and Vert.x's event loops do.
 */
@Timeout(60)
class CelerHttpServerTest
{
    private static final String PLAINTEXT = "GET /plaintext HTTP/1.1\r\nHost: localhost\r\n\r\n";

    @Test
    void answersPlaintextAndTimeBlock() throws Exception
    {
        HttpPeerChecks.checkAll(PeerMain.configure(new CelerHttpServer()));
    }

    /**
     * A reactor that yields on every idle cycle keeps its CPU busy and, on a CPU shared with anything else, gives
     * its turn away at each yield, so a response whose request has arrived waits for the others' slices. The
     * benchmark's server sleeps in epoll_wait instead, and the request's bytes wake it: over an idle half second
     * its thread runs for its 10 ms connection count only, and the next request on the same connection is still
     * answered.
     */
    @Test
    void sleepsWhileIdleAndWakesForTheNextRequest() throws Exception
    {
        final CelerHttpServer peer = PeerMain.configure(new CelerHttpServer());
        final PeerServer.Serving serving = peer.start();
        final ThreadMXBean threads = (ThreadMXBean)ManagementFactory.getThreadMXBean();
        try (Socket socket = HttpPeerChecks.connect(serving.port()))
        {
            final OutputStream out = socket.getOutputStream();
            final InputStream in = socket.getInputStream();
            out.write(HttpPeerChecks.ascii(PLAINTEXT));
            assertThat(HttpPeerChecks.readPlaintextResponses(in, 1)).isEqualTo(1);
            final long reactor = peer.reactorThread(0).getId();
            final long cpuBefore = threads.getThreadCpuTime(reactor);
            final long wallBefore = System.nanoTime();
            Thread.sleep(500);
            final long cpu = threads.getThreadCpuTime(reactor) - cpuBefore;
            final long wall = System.nanoTime() - wallBefore;
            // A yielding reactor alone on its CPU runs the whole window; a loaded machine still leaves it far more
            // than this.
            assertThat(cpu).as("reactor CPU ns over %d ms idle", TimeUnit.NANOSECONDS.toMillis(wall))
                .isLessThan(wall / 20);
            out.write(HttpPeerChecks.ascii(PLAINTEXT));
            assertThat(HttpPeerChecks.readPlaintextResponses(in, 1)).as("answered after the idle wait").isEqualTo(1);
        }
        finally
        {
            peer.stop();
        }
    }

    @Test
    void servesFromTwoLoops() throws Exception
    {
        final String stats = HttpPeerChecks.statsOfLoops(PeerMain.configure(new CelerHttpServer(), "--loops=2"), 16);
        assertThat(stats).contains(" loops=2 ", " messages=16 ");
        // The kernel spreads the connections over the two listeners by their addresses: 16 all on one is 1 in 32,768.
        assertThat(HttpPeerChecks.perLoop(stats, "peak_connections")).as(stats).hasSize(2)
            .allSatisfy(peak -> assertThat(peak).isPositive());
        assertThat(HttpPeerChecks.perLoop(stats, "messages")).as(stats).hasSize(2);
    }
}
