package io.celer.http.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.celer.test.ConnectionPerRequest;
import io.celer.test.OnReactor;
import io.celer.test.SteadyAllocation;

/**
 * The paper's {@code ab} test without keep-alive: one connection per request, closed by the server after the
 * response. After warm-up the reactor thread allocates per connection only the JDK's socket objects and a
 * fixed, small set of Celer's; request tables and response heads are recycled.
 */
class ConnectionPerRequestAllocationTest
{
    private static final int CYCLES = 200;
    private static final byte[] REQUEST =
        "GET /plaintext HTTP/1.0\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    /**
     * What one connection may allocate on the reactor thread; about 1.7 KiB measured on JDK 17. The TCP part
     * (about 1.2 KiB, mostly the JDK's {@code SocketChannelImpl} and its addresses, locks and selection key) is
     * explained in celer-core's {@code AcceptAllocationTest}. The HTTP part is one {@link HttpConnection} with
     * its parser, decoder, pipeline and the one response slot it uses, made per connection because
     * responses reach the application; its request table and response head (about 4 KiB at the defaults) come
     * back from the server's {@link ConnectionRecycler}, which the second assertion checks exactly. Loose
     * enough for a JDK update, tight enough to catch a table or head made per connection again.
     */
    private static final long MAX_BYTES_PER_CONNECTION = 3 * 1024;

    @AutoClose
    private TestServer server;

    @Test
    @Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES)
    void aConnectionPerRequestAllocatesABoundedAmountPerConnection() throws Exception
    {
        server = new TestServer();
        final InetSocketAddress address = new InetSocketAddress("127.0.0.1", server.port());
        final List<Long> windows = SteadyAllocation.perWindow(server.reactor.thread(), () -> cycles(address));
        final long madeBefore = made();
        cycles(address);
        assertThat(made() - madeBefore).as("request tables and heads made over %d connections", CYCLES).isZero();
        final long best = windows.stream().mapToLong(Long::longValue).min().orElseThrow();
        System.out.printf("HTTP/1.0 connection per request: bytes per connection on the reactor thread %s%n",
            windows.stream().map(w -> Long.toString(w / CYCLES)).toList());
        assertThat(best / CYCLES).as("bytes per connection on the reactor thread, windows %s", windows)
            .isLessThanOrEqualTo(MAX_BYTES_PER_CONNECTION);
    }

    private long made()
    {
        return OnReactor.get(server.reactor, () -> server.server.recycler().made());
    }

    private static void cycles(final InetSocketAddress address) throws IOException
    {
        final byte[] answer = new byte[1024];
        for (int i = 0; i < CYCLES; i++)
        {
            assertThat(ConnectionPerRequest.exchange(address, REQUEST, answer)).endsWith("Hello, World!");
        }
    }
}
