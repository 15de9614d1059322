package io.celer.linux.uring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.celer.linux.Errno;
import io.celer.linux.Loopback;
import io.celer.linux.Net;
import io.celer.linux.Syscalls;
import io.celer.linux.UringCalls;

/**
 * An io_uring driven through its mapped rings: operations complete with their user data, a full submission ring
 * says so, a wait runs out, a cancelled receive's late completion carries its old generation, and a loopback echo
 * server on a multishot accept, multishot receives into provided buffers and sends answers a JDK socket's pings in
 * order, allocating nothing per message after warm-up.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class IoUringTest
{
    private static final int ACCEPT = 1;
    private static final int RECEIVE = 2;
    private static final int SEND = 3;
    private static final int CANCEL = 4;
    private static final int NOP = 5;
    private static final int WARM_UP = 20_000;
    private static final int MEASURED = 20_000;
    private static final int ROUNDS = 5;
    private static final int PINGS = WARM_UP + ROUNDS * MEASURED + 1_000;

    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();

    @BeforeAll
    static void ioUringIsThere()
    {
        final String why = IoUring.unavailable();
        assumeThat(why).as("io_uring cannot be used here: %s", why).isNull();
    }

    @Test
    void operationsCompleteWithTheirUserDataAndAFullRingSaysSo()
    {
        try (Arena arena = Arena.ofConfined())
        {
            try (IoUring ring = IoUring.open(arena, new UringCalls(arena), 8))
            {
                for (int i = 0; i < 8; i++)
                {
                    assertThat(ring.nop(UserData.of(i, 7, NOP))).isTrue();
                }
                assertThat(ring.nop(UserData.of(8, 7, NOP))).as("a ninth entry in a ring of eight").isFalse();
                assertThat(ring.prepared()).isEqualTo(8);
                assertThat(ring.submitAndWait(8, 5_000_000_000L)).isEqualTo(8);
                assertThat(ring.prepared()).isZero();
                final List<String> completions = new ArrayList<>();
                assertThat(ring.complete((userData, result, flags) -> completions.add(UserData.slot(userData) + "/" +
                    UserData.generation(userData) + "/" + UserData.operation(userData) + "=" + result))).isEqualTo(8);
                assertThat(completions).containsExactly("0/7/5=0", "1/7/5=0", "2/7/5=0", "3/7/5=0", "4/7/5=0",
                    "5/7/5=0", "6/7/5=0", "7/7/5=0");
                assertThat(ring.nop(UserData.of(8, 7, NOP))).as("room again once submitted").isTrue();
            }
        }
    }

    @Test
    void aWaitWithNothingToCompleteRunsOutOfTime()
    {
        try (Arena arena = Arena.ofConfined())
        {
            try (IoUring ring = IoUring.open(arena, new UringCalls(arena), 4))
            {
                final long start = System.nanoTime();
                assertThat(ring.submitAndWait(1, 50_000_000L)).isEqualTo(-Errno.ETIME);
                assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(45_000_000L);
            }
        }
    }

    @Test
    void userDataKeepsSlotGenerationAndOperationApart()
    {
        final long packed = UserData.of(Integer.MAX_VALUE, UserData.GENERATION_MASK, 255);
        assertThat(UserData.slot(packed)).isEqualTo(Integer.MAX_VALUE);
        assertThat(UserData.generation(packed)).isEqualTo(UserData.GENERATION_MASK);
        assertThat(UserData.operation(packed)).isEqualTo(255);
        assertThat(UserData.next(UserData.GENERATION_MASK)).isZero();
        assertThat(UserData.generation(UserData.of(3, UserData.GENERATION_MASK + 2, 1))).isEqualTo(1);
    }

    @Test
    void aCancelledReceiveCompletesLateWithItsOldGeneration() throws Exception
    {
        try (Arena arena = Arena.ofConfined())
        {
            final Syscalls calls = new Syscalls(arena);
            final MemorySegment scratch = arena.allocate(64, 8);
            final int[] port = new int[1];
            final int listener = Loopback.listen(calls, scratch, port);
            try (IoUring ring = IoUring.open(arena, new UringCalls(arena), 16);
                Socket client = new Socket("127.0.0.1", port[0]))
            {
                final BufferRing buffers = new BufferRing(arena, ring, (short)1, 4, 1024);
                final int connection = acceptOne(calls, listener);
                final int[] generations = {0};
                ring.receiveMultishot(connection, buffers.group(), UserData.of(0, generations[0], RECEIVE));
                ring.submit();
                // The slot's connection goes: its generation moves on, and the armed receive is cancelled.
                generations[0] = UserData.next(generations[0]);
                ring.cancel(UserData.of(0, 0, RECEIVE), UserData.of(0, generations[0], CANCEL));
                final List<String> seen = new ArrayList<>();
                final CompletionHandler handler = (userData, result, flags) ->
                {
                    final boolean stale = UserData.generation(userData) != generations[UserData.slot(userData)];
                    seen.add(UserData.operation(userData) + (stale ? " stale " : " current ") + Errno.name(result));
                };
                int completed = 0;
                for (int i = 0; i < 50 && completed < 2; i++)
                {
                    ring.submitAndWait(1, 100_000_000L);
                    completed += ring.complete(handler);
                }
                assertThat(seen).containsExactlyInAnyOrder(RECEIVE + " stale ECANCELED", CANCEL + " current errno 0");
                buffers.close();
                calls.close(connection);
            }
            finally
            {
                calls.close(listener);
            }
        }
    }

    @Test
    void anEchoServerOnMultishotAcceptAndReceiveAnswersInOrderAndAllocatesNothingPerMessage() throws Exception
    {
        try (Arena arena = Arena.ofConfined())
        {
            final Syscalls calls = new Syscalls(arena);
            final MemorySegment scratch = arena.allocate(64, 8);
            final int[] port = new int[1];
            final int listener = Loopback.listen(calls, scratch, port);
            try (IoUring ring = IoUring.open(arena, new UringCalls(arena), 64))
            {
                final BufferRing buffers = new BufferRing(arena, ring, (short)7, 16, 4096);
                final EchoLoop loop = new EchoLoop(ring, buffers, calls, scratch);
                assertThat(ring.acceptMultishot(listener, UserData.of(0, 0, ACCEPT))).isTrue();
                final CompletableFuture<Void> client = CompletableFuture.runAsync(() -> Loopback.ping(port[0], PINGS));
                long roundStart = 0;
                long least = Long.MAX_VALUE;
                long measuredUpTo = WARM_UP;
                while (loop.open)
                {
                    final int submitted = ring.submitAndWait(1, 1_000_000_000L);
                    if (submitted < 0 && submitted != -Errno.ETIME && submitted != -Errno.EINTR)
                    {
                        throw new AssertionError("io_uring_enter: " + Errno.name(submitted));
                    }
                    ring.complete(loop);
                    if (loop.echoed >= measuredUpTo && measuredUpTo <= WARM_UP + ROUNDS * MEASURED)
                    {
                        final long now = THREADS.getCurrentThreadAllocatedBytes();
                        if (measuredUpTo > WARM_UP)
                        {
                            least = Math.min(least, now - roundStart);
                        }
                        roundStart = now;
                        measuredUpTo += MEASURED;
                    }
                }
                client.get(30, TimeUnit.SECONDS);
                assertThat(loop.failure).isNull();
                assertThat(loop.echoed).isEqualTo(PINGS);
                assertThat(least).as("the least bytes the loop allocated in a round of %d pings", MEASURED).isZero();
                buffers.close();
            }
            finally
            {
                calls.close(listener);
            }
        }
    }

    /** The server's completions: each accepted connection armed with a receive, each read sent back. */
    private static final class EchoLoop implements CompletionHandler
    {
        private final IoUring ring;
        private final BufferRing buffers;
        private final Syscalls calls;
        private final MemorySegment scratch;
        long echoed;
        boolean open = true;
        String failure;

        EchoLoop(final IoUring ring, final BufferRing buffers, final Syscalls calls, final MemorySegment scratch)
        {
            this.ring = ring;
            this.buffers = buffers;
            this.calls = calls;
            this.scratch = scratch;
        }

        @Override
        public void complete(final long userData, final int result, final int flags)
        {
            switch (UserData.operation(userData))
            {
                case ACCEPT ->
                {
                    calls.setIntOption(result, Net.IPPROTO_TCP, Net.TCP_NODELAY, scratch, 1);
                    ring.receiveMultishot(result, buffers.group(), UserData.of(result, 0, RECEIVE));
                }
                case RECEIVE -> received(UserData.slot(userData), result, flags);
                case SEND ->
                {
                    // A ping is 8 bytes: the socket takes it whole. The buffer is free once it is sent.
                    if (result != 8)
                    {
                        fail("send returned " + result);
                    }
                    buffers.recycle(UserData.slot(userData));
                }
                default -> fail("unexpected completion " + userData);
            }
        }

        private void received(final int connection, final int result, final int flags)
        {
            if (result == 0 || result == -Errno.ECONNRESET)
            {
                calls.close(connection);
                open = false;
                return;
            }
            if (result < 0)
            {
                fail("receive: " + Errno.name(result));
                return;
            }
            final int id = IoUring.bufferId(flags);
            // The client waits for each pong, so a read is one ping of 8 bytes.
            ring.send(connection, buffers.address(id), result, UserData.of(id, 0, SEND));
            echoed += result / 8;
            if ((flags & IoUring.CQE_F_MORE) == 0)
            {
                ring.receiveMultishot(connection, buffers.group(), UserData.of(connection, 0, RECEIVE));
            }
        }

        private void fail(final String why)
        {
            failure = why;
            open = false;
        }
    }

    private static int acceptOne(final Syscalls calls, final int listener) throws InterruptedException
    {
        for (int i = 0; i < 1_000; i++)
        {
            final int fd = calls.accept(listener, Net.SOCK_NONBLOCK | Net.SOCK_CLOEXEC);
            if (fd >= 0)
            {
                return fd;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("no connection to accept");
    }
}
