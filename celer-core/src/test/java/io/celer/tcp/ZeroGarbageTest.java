package io.celer.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;

import org.agrona.concurrent.BusySpinIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.framing.FixedSizeFraming;
import io.celer.reactor.Reactor;
import io.celer.test.PingClient;
import io.celer.test.Reactors;
import io.celer.test.SteadyAllocation;

/**
 * Once the JIT is quiet, windows of 256-byte echo round trips allocate nothing on either reactor thread.
 */
class ZeroGarbageTest
{
    private static final int SIZE = 256;
    /**
     * Round trips per window: garbage made per message, per write path or per select shows in every window, and
     * a window takes seconds at most even on a loaded machine, where a round trip may take a few hundred us.
     */
    private static final long WINDOW = 10_000;
    /** A window's bound: a round trip may wait for a core, never this long. */
    private static final Duration WINDOW_BOUND = Duration.ofMinutes(2);

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
    // Two busy-spinning reactors on a small, shared machine: a window may take seconds, and up to 23 of them run.
    @org.junit.jupiter.api.Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES)
    void echoRoundTripsAllocateNothingOnTheReactorThreads() throws Exception
    {
        // Descriptors past 127, as on a busy server: the JDK's selector boxes them (see Reactor).
        final List<java.nio.channels.Pipe> spare = new java.util.ArrayList<>();
        for (int i = 0; i < 100; i++)
        {
            spare.add(java.nio.channels.Pipe.open());
        }
        try
        {
            final Reactor serverReactor = reactors.start("server", new BusySpinIdleStrategy());
            final Reactor clientReactor = reactors.start("client", new BusySpinIdleStrategy());
            final TcpConfig config =
                new TcpConfig().bindAddress("127.0.0.1").framing(() -> new FixedSizeFraming(SIZE));

            final TcpServer server = new TcpServer(serverReactor, 0, config, new EchoInTurns()).open();
            final PingClient ping = new PingClient(SIZE);
            new TcpClient(clientReactor, "127.0.0.1", server.port(), config, ping).open();

            final List<Long> windows = SteadyAllocation.perWindow(
                List.of(serverReactor.thread(), clientReactor.thread()), () -> ping.awaitMore(WINDOW, WINDOW_BOUND));

            assertThat(ping.failure()).isNull();
            assertThat(windows).as("bytes allocated by the two reactor threads per window of %d round trips", WINDOW)
                .endsWith(0L);
        }
        finally
        {
            for (final java.nio.channels.Pipe pipe : spare)
            {
                pipe.source().close();
                pipe.sink().close();
            }
        }
    }
}
