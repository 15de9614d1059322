package io.celer.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.BusySpinIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.framing.FixedSizeFraming;
import io.celer.reactor.Reactor;
import io.celer.test.Allocations;
import io.celer.test.Await;
import io.celer.test.PingClient;
import io.celer.test.Reactors;

/**
 * After warm-up, a million 256-byte echo round trips (at least 200,000 on a loaded machine) allocate nothing on
 * either reactor thread.
 */
class ZeroGarbageTest
{
    private static final int SIZE = 256;
    private static final long WARMUP = 200_000;
    private static final long MEASURED = 1_000_000;
    private static final long MIN_MEASURED = 200_000;

    @RegisterExtension
    final Reactors reactors = new Reactors();

    /**
     * Echoes each message back through each of the write paths in turn: buffer, array and text.
     */
    private static final class EchoInTurns implements Handler
    {
        private final byte[] bytes = new byte[SIZE];
        private final ByteChars chars = new ByteChars(bytes);
        private long count;

        @Override
        public void message(final Connection connection, final ByteBuffer message)
        {
            message.getLong(message.position()); // read the message as a real server would
            switch ((int)(count++ % 3))
            {
                case 0:
                    connection.send(message);
                    break;
                case 1:
                    message.get(bytes);
                    connection.send(bytes);
                    break;
                default:
                    message.get(bytes);
                    connection.send(chars);
                    break;
            }
        }
    }

    /**
     * Bytes seen as chars of the same value, so that text writes carry binary content unchanged.
     */
    private static final class ByteChars implements CharSequence
    {
        private final byte[] bytes;

        ByteChars(final byte[] bytes)
        {
            this.bytes = bytes;
        }

        @Override
        public int length()
        {
            return bytes.length;
        }

        @Override
        public char charAt(final int index)
        {
            return (char)(bytes[index] & 0xFF);
        }

        @Override
        public CharSequence subSequence(final int start, final int end)
        {
            throw new UnsupportedOperationException();
        }
    }

    @Test
    // Two busy-spinning reactors on a small, shared machine: a million round trips may take minutes.
    @org.junit.jupiter.api.Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES)
    void echoRoundTripsAllocateNothingOnTheReactorThreads() throws Exception
    {
        // Descriptors past 127, as on a busy server: the JDK's selector boxes them (see Reactor).
        final java.util.List<java.nio.channels.Pipe> spare = new java.util.ArrayList<>();
        for (int i = 0; i < 100; i++)
        {
            spare.add(java.nio.channels.Pipe.open());
        }
        final Reactor serverReactor = reactors.start("server", new BusySpinIdleStrategy());
        final Reactor clientReactor = reactors.start("client", new BusySpinIdleStrategy());
        final TcpConfig config = new TcpConfig().bindAddress("127.0.0.1").framing(() -> new FixedSizeFraming(SIZE));

        final TcpServer server = new TcpServer(serverReactor, 0, config, new EchoInTurns()).open();
        final PingClient ping = new PingClient(SIZE);
        new TcpClient(clientReactor, "127.0.0.1", server.port(), config, ping).open();

        Await.until(() -> "warm-up, at " + ping.roundTrips() + ", failure " + ping.failure(),
            () -> ping.roundTrips() >= WARMUP || ping.failure() != null, Duration.ofSeconds(360));
        final long serverBefore = Allocations.allocatedBytes(serverReactor.thread());
        final long clientBefore = Allocations.allocatedBytes(clientReactor.thread());
        final long start = ping.roundTrips();

        // A million round trips, or what five minutes allow on a loaded machine, as long as that is a fair sample.
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (ping.roundTrips() - start < MEASURED && ping.failure() == null && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
        }
        final long measured = ping.roundTrips() - start;
        final long serverAllocated = Allocations.allocatedBytes(serverReactor.thread()) - serverBefore;
        final long clientAllocated = Allocations.allocatedBytes(clientReactor.thread()) - clientBefore;

        assertThat(ping.failure()).isNull();
        assertThat(measured).as("round trips measured").isGreaterThanOrEqualTo(MIN_MEASURED);
        assertThat(serverAllocated).as("bytes allocated by the server reactor over %d round trips", measured)
            .isZero();
        assertThat(clientAllocated).as("bytes allocated by the client reactor over %d round trips", measured)
            .isZero();
        for (final java.nio.channels.Pipe pipe : spare)
        {
            pipe.source().close();
            pipe.sink().close();
        }
    }
}
