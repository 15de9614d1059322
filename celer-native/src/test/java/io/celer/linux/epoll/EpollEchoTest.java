package io.celer.linux.epoll;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.celer.linux.Errno;
import io.celer.linux.Loopback;
import io.celer.linux.Net;
import io.celer.linux.Syscalls;

/**
 * A loopback echo server written on the system calls alone: a JDK socket's pings come back in order, the loop's
 * thread allocates nothing per message after warm-up, a wake-up from another thread ends a blocked poll, and
 * failures come back as negated errno values rather than exceptions.
 */
class EpollEchoTest
{
    private static final int WARM_UP = 20_000;
    private static final int MEASURED = 20_000;
    /** Rounds of {@link #MEASURED} pings: a compiler tier change may allocate once, a per-message cost in all. */
    private static final int ROUNDS = 5;
    private static final int PINGS = WARM_UP + ROUNDS * MEASURED + 1_000;
    private static final long LISTENER = 1;
    private static final int LOOPBACK = 0x7f000001;

    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();

    private static long allocatedBytes()
    {
        return THREADS.getCurrentThreadAllocatedBytes();
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void pingsComeBackInOrderAndTheLoopAllocatesNothingPerMessage() throws Exception
    {
        try (Arena arena = Arena.ofConfined())
        {
            final Syscalls calls = new Syscalls(arena);
            final MemorySegment scratch = arena.allocate(64, 8);
            final MemorySegment buffer = arena.allocate(64 * 1024, 64);
            final int[] port = new int[1];
            final int listener = Loopback.listen(calls, scratch, port);
            try (Epoll epoll = new Epoll(arena, calls, 64))
            {
                assertThat(epoll.add(listener, Epoll.EPOLLIN, LISTENER)).isZero();
                final CompletableFuture<Void> client = CompletableFuture.runAsync(() -> Loopback.ping(port[0], PINGS));

                final EchoLoop loop = new EchoLoop(calls, epoll, listener, scratch, buffer);
                long roundStart = 0;
                long least = Long.MAX_VALUE;
                long measuredUpTo = WARM_UP;
                while (loop.open)
                {
                    loop.cycle();
                    if (loop.echoed >= measuredUpTo && measuredUpTo <= WARM_UP + ROUNDS * MEASURED)
                    {
                        final long now = allocatedBytes();
                        if (measuredUpTo > WARM_UP)
                        {
                            least = Math.min(least, now - roundStart);
                        }
                        roundStart = now;
                        measuredUpTo += MEASURED;
                    }
                }
                final long echoed = loop.echoed;
                client.get(30, TimeUnit.SECONDS);
                assertThat(echoed).isEqualTo(PINGS);
                assertThat(least).as("the least bytes the loop allocated in a round of %d pings", MEASURED).isZero();
            }
            finally
            {
                calls.close(listener);
            }
        }
    }

    /** The server: one poll and what it reported, per cycle, as a reactor would run it. */
    private static final class EchoLoop
    {
        private final Syscalls calls;
        private final Epoll epoll;
        private final int listener;
        private final MemorySegment scratch;
        private final MemorySegment buffer;
        long echoed;
        boolean open = true;

        EchoLoop(final Syscalls calls, final Epoll epoll, final int listener, final MemorySegment scratch,
            final MemorySegment buffer)
        {
            this.calls = calls;
            this.epoll = epoll;
            this.listener = listener;
            this.scratch = scratch;
            this.buffer = buffer;
        }

        void cycle()
        {
            final int ready = epoll.poll(1_000);
            for (int i = 0; i < ready; i++)
            {
                final long token = epoll.token(i);
                if (token == LISTENER)
                {
                    accept();
                }
                else
                {
                    echo((int)token);
                }
            }
        }

        private void accept()
        {
            final int connection = calls.accept(listener, Net.SOCK_NONBLOCK | Net.SOCK_CLOEXEC);
            if (connection < 0)
            {
                throw new AssertionError("accept: " + Errno.name(connection));
            }
            calls.setIntOption(connection, Net.IPPROTO_TCP, Net.TCP_NODELAY, scratch, 1);
            epoll.add(connection, Epoll.EPOLLIN, connection);
        }

        private void echo(final int connection)
        {
            final long read = calls.read(connection, buffer.address(), buffer.byteSize());
            if (read == 0 || read == -Errno.ECONNRESET)
            {
                epoll.remove(connection);
                calls.close(connection);
                open = false;
                return;
            }
            // Pings are 8 bytes and wait for their pong: the socket takes the echo whole. No assertion objects
            // on the measured path: a plain check.
            if (read == -Errno.EAGAIN)
            {
                return;
            }
            if (read < 0 || calls.write(connection, buffer.address(), read) != read)
            {
                throw new AssertionError("read " + read + " and could not echo it");
            }
            echoed += read / 8;
        }
    }

    @Test
    @Timeout(value = 1, unit = TimeUnit.MINUTES)
    void aWakeupFromAnotherThreadEndsABlockedPollWithNoEvent() throws Exception
    {
        try (Arena arena = Arena.ofShared())
        {
            final Syscalls calls = new Syscalls(arena);
            try (Epoll epoll = new Epoll(arena, calls, 8))
            {
                final CompletableFuture<Void> waker = CompletableFuture.runAsync(() ->
                {
                    try
                    {
                        Thread.sleep(200);
                    }
                    catch (final InterruptedException ex)
                    {
                        Thread.currentThread().interrupt();
                    }
                    epoll.wakeup();
                });
                final long start = System.nanoTime();
                assertThat(epoll.poll(-1)).as("events after a wake-up").isZero();
                assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));
                waker.get(10, TimeUnit.SECONDS);
                // The wake-up was consumed: the next poll finds nothing.
                assertThat(epoll.poll(0)).isZero();
            }
        }
    }

    @Test
    void failuresComeBackAsNegatedErrno()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final Syscalls calls = new Syscalls(arena);
            final MemorySegment scratch = arena.allocate(64, 8);
            assertThat(calls.read(1_000_000, scratch.address(), 8)).isEqualTo(-Errno.EBADF);
            final int[] port = new int[1];
            final int listener = Loopback.listen(calls, scratch, port);
            try
            {
                assertThat(calls.accept(listener, Net.SOCK_NONBLOCK)).as("nothing to accept").isEqualTo(-Errno.EAGAIN);
                final int second = calls.socket(Net.AF_INET, Net.SOCK_STREAM, 0);
                final MemorySegment address = scratch.asSlice(8, Net.SOCKADDR_IN_SIZE);
                Net.writeInet4(address, LOOPBACK, port[0]);
                assertThat(calls.bind(second, address.address(), Net.SOCKADDR_IN_SIZE)).isEqualTo(-Errno.EADDRINUSE);
                calls.close(second);
            }
            finally
            {
                calls.close(listener);
            }
            assertThat(Errno.name(-Errno.EAGAIN)).isEqualTo("EAGAIN");
        }
    }
}
