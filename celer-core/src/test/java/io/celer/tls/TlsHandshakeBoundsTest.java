package io.celer.tls;

import static io.celer.test.Sockets.lineReader;
import static io.celer.test.Sockets.sendLine;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import javax.net.ssl.SSLSocket;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.framing.LineFraming;
import io.celer.reactor.Reactor;
import io.celer.tcp.CloseReason;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;
import io.celer.tcp.Transport;
import io.celer.tcp.TransportFactory;
import io.celer.test.Await;
import io.celer.test.OpenSsl;
import io.celer.test.Reactors;
import io.celer.test.RecordingHandler;
import io.celer.test.TestCertificates;
import io.celer.test.Transports;

/**
 * The bounds a TLS server keeps against hostile peers, over real sockets: handshakes at once on a reactor, and
 * renegotiations and key updates per interval.
 */
class TlsHandshakeBoundsTest
{
    private static final int READ_TIMEOUT_MILLIS = 30_000;

    @RegisterExtension
    final Reactors reactors = new Reactors();

    /**
     * Counts the handshakes under way as the transport sees them: from the first step until one returns done,
     * throws, or the connection lets its transport go.
     */
    private static final class CountingTls implements TransportFactory
    {
        final TlsConfig tls;
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger peak = new AtomicInteger();
        final AtomicInteger done = new AtomicInteger();

        CountingTls(final TlsConfig tls)
        {
            this.tls = tls;
        }

        @Override
        public Transport newTransport(final boolean clientMode, final String peerHost, final int peerPort)
        {
            final Transport inner = tls.newTransport(clientMode, peerHost, peerPort);
            return new Transport()
            {
                private boolean started;
                private boolean finished;

                @Override
                public boolean handshake(final ByteChannel channel) throws IOException
                {
                    if (!started)
                    {
                        started = true;
                        peak.accumulateAndGet(running.incrementAndGet(), Math::max);
                    }
                    try
                    {
                        final boolean ready = inner.handshake(channel);
                        if (ready)
                        {
                            end();
                            done.incrementAndGet();
                        }
                        return ready;
                    }
                    catch (final IOException ex)
                    {
                        end();
                        throw ex;
                    }
                }

                private void end()
                {
                    if (started && !finished)
                    {
                        finished = true;
                        running.decrementAndGet();
                    }
                }

                @Override
                public boolean handshakeWorkPending()
                {
                    return inner.handshakeWorkPending();
                }

                @Override
                public void resumeHandshakeThrough(final Runnable resume, final boolean channelIoConfined)
                {
                    inner.resumeHandshakeThrough(resume, channelIoConfined);
                }

                @Override
                public int read(final ByteChannel channel, final ByteBuffer destination, final boolean fromSocket)
                    throws IOException
                {
                    return inner.read(channel, destination, fromSocket);
                }

                @Override
                public boolean hasBufferedInput()
                {
                    return inner.hasBufferedInput();
                }

                @Override
                public void write(final ByteChannel channel, final ByteBuffer source) throws IOException
                {
                    inner.write(channel, source);
                }

                @Override
                public boolean hasPendingOutput()
                {
                    return inner.hasPendingOutput();
                }

                @Override
                public void shutdown(final ByteChannel channel)
                {
                    inner.shutdown(channel);
                }

                @Override
                public void release()
                {
                    end();
                    inner.release();
                }
            };
        }

        @Override
        public int maxConcurrentHandshakes()
        {
            return tls.maxConcurrentHandshakes();
        }

        @Override
        public TcpConfig.OverLimit handshakesOverLimit()
        {
            return tls.handshakesOverLimit();
        }
    }

    private static TlsConfig serverTls()
    {
        return (TlsConfig)Transports.TLS.server();
    }

    private static TcpServer server(final Reactor reactor, final TransportFactory transport,
        final RecordingHandler handler)
    {
        return new TcpServer(reactor, 0, config(transport), handler).open();
    }

    /** Lines over a transport, on loopback. */
    private static TcpConfig config(final TransportFactory transport)
    {
        return new TcpConfig().bindAddress("127.0.0.1").framing(() -> new LineFraming(1024)).transport(transport);
    }

    private static Socket connect(final int port) throws IOException
    {
        final Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), READ_TIMEOUT_MILLIS);
        socket.setSoTimeout(READ_TIMEOUT_MILLIS);
        return socket;
    }

    @Test
    void aFloodOfHandshakesRunsAtMostTheBoundAtOnceAndEveryWaitingOneCompletesWhileAPlainClientIsServed()
        throws Exception
    {
        final int bound = 8;
        final int clients = 200;
        final Reactor reactor = reactors.start("server");
        final CountingTls tls = new CountingTls(serverTls().maxConcurrentHandshakes(bound));
        // The handshake timeout runs from the accept, waiting included: 200 handshakes, 8 at a time, on two CPUs
        // shared with another test JVM took over the default 10 s once, and the last to wait were closed. Their
        // timeout is not what this test is about; the clients' reads give up after 30 s.
        final TcpServer tlsServer = new TcpServer(reactor, 0,
            config(tls).handshakeTimeoutMillis(READ_TIMEOUT_MILLIS), new RecordingHandler(true)).open();
        final TcpServer plainServer = server(reactor, TransportFactory.plain(), new RecordingHandler(true));

        try (Socket plain = connect(plainServer.port()))
        {
            final BufferedReader plainIn = lineReader(plain);
            final long[] quiet = roundTrips(plain, plainIn, 500);

            final CountDownLatch go = new CountDownLatch(1);
            final AtomicInteger answered = new AtomicInteger();
            final List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
            final List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < clients; i++)
            {
                final int n = i;
                final Thread thread = new Thread(() ->
                {
                    try
                    {
                        go.await();
                        try (Socket tlsSocket = Transports.TLS.over(connect(tlsServer.port())))
                        {
                            sendLine(tlsSocket, "client " + n);
                            if (("client " + n).equals(lineReader(tlsSocket).readLine()))
                            {
                                answered.incrementAndGet();
                            }
                        }
                    }
                    catch (final Throwable t)
                    {
                        failures.add(t);
                    }
                }, "tls-flood-" + i);
                thread.start();
                threads.add(thread);
            }
            go.countDown();
            final long[] flooded = roundTrips(plain, plainIn, 500);
            for (final Thread thread : threads)
            {
                thread.join(Await.DEFAULT.toMillis());
            }

            assertThat(failures).isEmpty();
            assertThat(answered.get()).as("clients whose handshake completed and whose line came back")
                .isEqualTo(clients);
            assertThat(tls.peak.get()).as("handshakes under way at once").isLessThanOrEqualTo(bound).isPositive();
            assertThat(tls.done.get()).isEqualTo(clients);
            assertThat(tlsServer.waitedHandshakes()).as("handshakes that waited for a slot").isPositive();
            assertThat(tlsServer.refusedHandshakes()).isZero();
            // Measured, not asserted: the machine's load decides the figures, not the code alone.
            System.out.printf("plain round trips on the reactor, quiet: p50 %d us, p99 %d us; during %d TLS " +
                "handshakes (at most %d at once): p50 %d us, p99 %d us; %d waited%n",
                percentile(quiet, 50), percentile(quiet, 99), clients, bound, percentile(flooded, 50),
                percentile(flooded, 99), tlsServer.waitedHandshakes());
        }
    }

    private static long[] roundTrips(final Socket socket, final BufferedReader in, final int count)
        throws IOException
    {
        final long[] micros = new long[count];
        for (int i = 0; i < count; i++)
        {
            final long start = System.nanoTime();
            sendLine(socket, "ping " + i);
            assertThat(in.readLine()).isEqualTo("ping " + i);
            micros[i] = (System.nanoTime() - start) / 1_000;
        }
        return micros;
    }

    private static long percentile(final long[] values, final int percent)
    {
        final long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[Math.min(sorted.length - 1, sorted.length * percent / 100)];
    }

    @Test
    void aHandshakeBeyondTheBoundWaitsUnreadUntilASlotFrees() throws Exception
    {
        final TcpServer server = server(reactors.start("server"), serverTls().maxConcurrentHandshakes(1),
            new RecordingHandler(true));
        // Holds the one slot: its handshake waits for a ClientHello. Accepted first, being first in the queue.
        final Socket silent = connect(server.port());
        final Socket raw = connect(server.port());
        final Thread handshaking = new Thread(() ->
        {
            try
            {
                final Socket tls = Transports.TLS.over(raw);
                sendLine(tls, "through");
                lineReader(tls).readLine();
            }
            catch (final IOException ex)
            {
                // the assertions below tell
            }
        }, "waiting-handshake");
        handshaking.start();
        Await.until("the second handshake waiting", () -> server.waitedHandshakes() == 1);
        handshaking.join(500);
        assertThat(handshaking.isAlive()).as("a handshake beyond the bound goes on before a slot frees").isTrue();

        silent.close(); // its handshake fails at the end of the stream, and the slot passes on
        handshaking.join(Await.DEFAULT.toMillis());
        assertThat(handshaking.isAlive()).isFalse();
        assertThat(server.connectionCount()).as("the waiting one, open").isEqualTo(1);
        raw.close();
    }

    @Test
    void aHandshakeBeyondTheBoundIsRefusedWhenThePolicyIsToClose() throws Exception
    {
        final RecordingHandler handler = new RecordingHandler(true);
        final TcpServer server = server(reactors.start("server"),
            serverTls().maxConcurrentHandshakes(1).handshakesOverLimit(TcpConfig.OverLimit.CLOSE), handler);
        try (Socket silent = connect(server.port()); Socket refused = connect(server.port()))
        {
            assertThat(refused.getInputStream().read()).as("the refused peer's end of stream").isEqualTo(-1);
            assertThat(handler.awaitClosed()).isEqualTo(CloseReason.HANDSHAKE_LIMIT);
            assertThat(server.refusedHandshakes()).isEqualTo(1);
            assertThat(silent.isClosed()).isFalse();
        }
        // The slot is free again once the silent peer went: a new client shakes hands.
        handler.awaitEvent("closed:" + CloseReason.TLS_ERROR); // its handshake ended at the end of its stream
        try (Socket tls = Transports.TLS.over(connect(server.port())))
        {
            sendLine(tls, "after");
            assertThat(lineReader(tls).readLine()).isEqualTo("after");
        }
    }

    @Test
    void tls12RenegotiationsBeyondTheRateAreClosed() throws Exception
    {
        final RecordingHandler handler = new RecordingHandler(true);
        final TcpServer server = server(reactors.start("server"),
            serverTls().protocols("TLSv1.2").maxRenegotiations(3, 60_000), handler);
        try (SSLSocket tls = (SSLSocket)Transports.TLS.over(connect(server.port())))
        {
            final AtomicInteger handshakes = new AtomicInteger(1);
            tls.addHandshakeCompletedListener(event -> handshakes.incrementAndGet());
            final BufferedReader in = lineReader(tls);
            for (int i = 1; i <= 3; i++)
            {
                tls.startHandshake(); // a renegotiation: a ClientHello on the established connection
                sendLine(tls, "after " + i);
                assertThat(in.readLine()).isEqualTo("after " + i);
                final int expected = i + 1;
                Await.until("renegotiation " + i + " done", () -> handshakes.get() == expected);
            }
            tls.startHandshake();
            sendLine(tls, "one too many");
            assertThat(readUntilClosed(in)).doesNotContain("one too many");
        }
        assertThat(handler.awaitClosed()).isEqualTo(CloseReason.RENEGOTIATION_LIMIT);
        assertThat(server.renegotiationCloses()).isEqualTo(1);
    }

    @Test
    void tls13KeyUpdatesBeyondTheRateAreClosed() throws Exception
    {
        final RecordingHandler handler = new RecordingHandler(true);
        final TcpServer server = server(reactors.start("server"),
            serverTls().protocols("TLSv1.3").maxRenegotiations(3, 60_000), handler);
        try (SSLSocket tls = (SSLSocket)Transports.TLS.over(connect(server.port())))
        {
            assertThat(tls.getSession().getProtocol()).isEqualTo("TLSv1.3");
            final BufferedReader in = lineReader(tls);
            for (int i = 1; i <= 3; i++)
            {
                tls.startHandshake(); // on TLS 1.3, a KeyUpdate that asks for one back
                sendLine(tls, "after " + i);
                assertThat(in.readLine()).isEqualTo("after " + i);
            }
            tls.startHandshake();
            sendLine(tls, "one too many");
            assertThat(readUntilClosed(in)).doesNotContain("one too many");
        }
        assertThat(handler.awaitClosed()).isEqualTo(CloseReason.RENEGOTIATION_LIMIT);
        assertThat(server.renegotiationCloses()).isEqualTo(1);
    }

    @Test
    void aRenegotiationFloodFromOpenSslIsClosed() throws Exception
    {
        OpenSsl.assumeInstalled();
        final RecordingHandler handler = new RecordingHandler(true);
        final TcpServer server = server(reactors.start("server"),
            serverTls().protocols("TLSv1.2").maxRenegotiations(3, 60_000), handler);
        try (OpenSsl client = OpenSsl.client("-connect", "127.0.0.1:" + server.port(), "-CAfile",
            TestCertificates.get().caPem().toString(), "-tls1_2"))
        {
            client.send("before\n");
            client.awaitLine("the echo", line -> line.endsWith("before"), Await.DEFAULT);
            sendUntilClosed(client, "R\n");
            assertThat(handler.awaitClosed()).isEqualTo(CloseReason.RENEGOTIATION_LIMIT);
        }
        assertThat(server.renegotiationCloses()).isEqualTo(1);
    }

    @Test
    void keyUpdatesThatAskNothingBackFromOpenSslCountToo() throws Exception
    {
        OpenSsl.assumeInstalled();
        final RecordingHandler handler = new RecordingHandler(true);
        final TcpServer server = server(reactors.start("server"),
            serverTls().protocols("TLSv1.3").maxRenegotiations(3, 60_000), handler);
        try (OpenSsl client = OpenSsl.client("-connect", "127.0.0.1:" + server.port(), "-CAfile",
            TestCertificates.get().caPem().toString(), "-tls1_3"))
        {
            client.send("before\n");
            client.awaitLine("the echo", line -> line.endsWith("before"), Await.DEFAULT);
            sendUntilClosed(client, "k\n");
            assertThat(handler.awaitClosed()).isEqualTo(CloseReason.RENEGOTIATION_LIMIT);
        }
    }

    /** Sends a command to s_client every 50 ms, 20 times at most or until it exits. */
    private static void sendUntilClosed(final OpenSsl client, final String command) throws InterruptedException
    {
        try
        {
            for (int i = 0; i < 20; i++)
            {
                client.send(command);
                Thread.sleep(50);
            }
        }
        catch (final IOException ex)
        {
            // s_client exited: the server closed
        }
    }

    @Test
    void boundsOutOfRangeAreRefusedAtOnce()
    {
        assertThatThrownBy(() -> new TlsConfig().maxConcurrentHandshakes(-1))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxConcurrentHandshakes");
        assertThatThrownBy(() -> new TlsConfig().handshakesOverLimit(null))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TlsConfig().maxRenegotiations(0, 1000))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0 per 1000 ms");
        assertThatThrownBy(() -> new TlsConfig().maxRenegotiations(1, 0))
            .isInstanceOf(IllegalArgumentException.class);
        assertThat(new TlsConfig().maxConcurrentHandshakes()).as("the default").isEqualTo(64);
        assertThat(new TlsConfig().handshakesOverLimit()).isEqualTo(TcpConfig.OverLimit.WAIT);
        assertThat(TransportFactory.plain().maxConcurrentHandshakes()).as("plain: no handshake, no bound").isZero();
    }

    private static List<String> readUntilClosed(final BufferedReader in)
    {
        final List<String> lines = new ArrayList<>();
        try
        {
            String line;
            while ((line = in.readLine()) != null)
            {
                lines.add(line);
            }
        }
        catch (final IOException ex)
        {
            // a reset or an alert ends the stream as well
        }
        return lines;
    }
}
