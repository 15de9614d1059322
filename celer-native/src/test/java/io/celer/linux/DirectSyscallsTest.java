package io.celer.linux;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;

import org.junit.jupiter.api.Test;

import io.celer.linux.epoll.Epoll;

/**
 * The calls a reactor makes per message and per connection, entered directly: each allocates nothing from its
 * first runs on, in the interpreter and before any compiler has seen it, where a call that captures {@code errno}
 * allocates its slice; and a failure still comes back as the kernel's {@code -errno}.
 */
class DirectSyscallsTest
{
    /**
     * Enough for the JDK to customize each handle's lambda form (a one-time cost, after 127 calls), few enough
     * that no call reaches C2, the one compiler that removes a capture's slice: a few thousand calls per handle.
     */
    private static final int COLD_ROUNDS = 150;
    private static final int LOOPBACK = 0x7f000001;
    private static final long PEER = 7;

    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();

    @Test
    void everyPerMessageCallAllocatesNothingBeforeTheJitCompilesIt()
    {
        assumeTrue("amd64".equals(System.getProperty("os.arch")), "direct system calls are for x86-64");
        assumeTrue(!"libc".equals(System.getProperty("celer.linux.syscalls")), "the C library's calls asked for");
        assertThat(DirectSyscalls.AVAILABLE).as("the syscall stub is in place").isTrue();
        try (Arena arena = Arena.ofConfined(); Pair pair = new Pair(arena))
        {
            // Linking each call site and customizing each handle allocate, once; then measured.
            for (int i = 0; i < COLD_ROUNDS; i++)
            {
                pair.round();
                pair.connection();
            }
            final long before = THREADS.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < COLD_ROUNDS; i++)
            {
                pair.round();
                pair.connection();
            }
            final long allocated = THREADS.getCurrentThreadAllocatedBytes() - before;
            assertThat(allocated).as("bytes allocated by %d rounds of cold calls", COLD_ROUNDS).isZero();
        }
    }

    @Test
    void failuresComeBackAsTheKernelsNegatedErrno()
    {
        try (Arena arena = Arena.ofConfined(); Pair pair = new Pair(arena))
        {
            assertThat(pair.calls.read(1_000_000, pair.buffer.address(), 8)).isEqualTo(-Errno.EBADF);
            assertThat(pair.calls.send(1_000_000, pair.buffer.address(), 8, Net.MSG_NOSIGNAL))
                .isEqualTo(-Errno.EBADF);
            assertThat(pair.calls.read(pair.server, pair.buffer.address(), 8)).as("nothing to read")
                .isEqualTo(-Errno.EAGAIN);
            assertThat(pair.calls.accept(pair.listener, Net.SOCK_NONBLOCK)).as("nothing to accept")
                .isEqualTo(-Errno.EAGAIN);
            // ENOENT: the descriptor is not in the set.
            assertThat(pair.epoll.modify(pair.listener, Epoll.EPOLLIN, 1)).isEqualTo(-2);
            assertThat(pair.calls.writev(pair.client, pair.buffer.address(), -1)).as("a negative count")
                .isEqualTo(-22);
            assertThat(pair.calls.shutdown(1_000_000, Net.SHUT_WR)).isEqualTo(-Errno.EBADF);
            assertThat(pair.calls.close(1_000_000)).isEqualTo(-Errno.EBADF);
            assertThat(pair.calls.setIntOption(1_000_000, Net.IPPROTO_TCP, Net.TCP_NODELAY, pair.scratch, 1))
                .isEqualTo(-Errno.EBADF);
            assertThat(pair.calls.peerAddress(pair.listener, pair.peer.address(), pair.scratch.address()))
                .as("a listener has no peer").isEqualTo(-Errno.ENOTCONN);
        }
    }

    /** A connected pair of non-blocking loopback sockets and an epoll set watching the server's end. */
    private static final class Pair implements AutoCloseable
    {
        final Syscalls calls;
        final MemorySegment buffer;
        final MemorySegment iovec;
        final MemorySegment address;
        final MemorySegment peer;
        final MemorySegment scratch;
        final Epoll epoll;
        final int listener;
        final int client;
        final int server;

        Pair(final Arena arena)
        {
            calls = new Syscalls(arena);
            buffer = arena.allocate(64, 8);
            iovec = arena.allocate(16, 8);
            iovec.set(ValueLayout.JAVA_LONG, 0, buffer.address());
            iovec.set(ValueLayout.JAVA_LONG, 8, 8L);
            address = arena.allocate(Net.SOCKADDR_IN_SIZE, 8);
            peer = arena.allocate(Net.SOCKADDR_IN6_SIZE, 8);
            scratch = arena.allocate(8, 8);
            final MemorySegment length = arena.allocate(ValueLayout.JAVA_INT);
            listener = calls.socket(Net.AF_INET, Net.SOCK_STREAM | Net.SOCK_NONBLOCK | Net.SOCK_CLOEXEC, 0);
            Net.writeInet4(address, LOOPBACK, 0);
            assertThat(calls.bind(listener, address.address(), Net.SOCKADDR_IN_SIZE)).isZero();
            assertThat(calls.listen(listener, 8)).isZero();
            length.set(ValueLayout.JAVA_INT, 0, Net.SOCKADDR_IN_SIZE);
            assertThat(calls.localAddress(listener, address.address(), length.address())).isZero();
            client = calls.socket(Net.AF_INET, Net.SOCK_STREAM | Net.SOCK_CLOEXEC, 0);
            assertThat(calls.connect(client, address.address(), Net.SOCKADDR_IN_SIZE)).isZero();
            int accepted;
            do
            {
                accepted = calls.accept(listener, Net.SOCK_NONBLOCK | Net.SOCK_CLOEXEC);
            }
            while (accepted == -Errno.EAGAIN);
            server = accepted;
            assertThat(server).isPositive();
            // No Nagle: a round's small writes go at once rather than after the peer's delayed acknowledgement.
            assertThat(calls.setIntOption(client, Net.IPPROTO_TCP, Net.TCP_NODELAY, length, 1)).isZero();
            assertThat(calls.setIntOption(server, Net.IPPROTO_TCP, Net.TCP_NODELAY, length, 1)).isZero();
            epoll = new Epoll(arena, calls, 8);
            assertThat(epoll.add(server, Epoll.EPOLLIN, PEER)).isZero();
        }

        /** A message each way, a read with nothing there, an accept with no one waiting, interest changes, polls. */
        void round()
        {
            check(calls.send(client, buffer.address(), 8, Net.MSG_NOSIGNAL) == 8);
            check(epoll.poll(1_000) == 1 && epoll.token(0) == PEER);
            check(epoll.poll(0) == 1);
            check(calls.read(server, buffer.address(), 64) == 8);
            check(calls.read(server, buffer.address(), 64) == -Errno.EAGAIN);
            check(calls.writev(server, iovec.address(), 1) == 8);
            check(calls.write(client, buffer.address(), 8) == 8);
            check(calls.accept(listener, Net.SOCK_NONBLOCK) == -Errno.EAGAIN);
            check(epoll.modify(server, Epoll.EPOLLIN | Epoll.EPOLLOUT, PEER) == 0);
            check(epoll.modify(server, Epoll.EPOLLIN, PEER) == 0);
            check(calls.read(client, buffer.address(), 64) == 8);
            check(calls.read(server, buffer.address(), 64) == 8);
        }

        /**
         * A connection's life as a server and a client see it: a socket, a non-blocking connect, the accept, its
         * options and addresses, a shutdown and the closes.
         */
        void connection()
        {
            final int connecting =
                calls.socket(Net.AF_INET, Net.SOCK_STREAM | Net.SOCK_NONBLOCK | Net.SOCK_CLOEXEC, 0);
            check(connecting > 0);
            final int connected = calls.connect(connecting, address.address(), Net.SOCKADDR_IN_SIZE);
            check(connected == 0 || connected == -Errno.EINPROGRESS);
            int accepted = -Errno.EAGAIN;
            for (int i = 0; i < 1_000_000 && accepted == -Errno.EAGAIN; i++)
            {
                accepted = calls.accept(listener, Net.SOCK_NONBLOCK | Net.SOCK_CLOEXEC);
            }
            check(accepted > 0);
            check(calls.setIntOption(accepted, Net.IPPROTO_TCP, Net.TCP_NODELAY, scratch, 1) == 0);
            check(calls.getIntOption(connecting, Net.SOL_SOCKET, Net.SO_ERROR, scratch) == 0);
            scratch.set(ValueLayout.JAVA_INT, 0, Net.SOCKADDR_IN6_SIZE);
            check(calls.peerAddress(accepted, peer.address(), scratch.address()) == 0);
            scratch.set(ValueLayout.JAVA_INT, 0, Net.SOCKADDR_IN6_SIZE);
            check(calls.localAddress(accepted, peer.address(), scratch.address()) == 0);
            check(calls.shutdown(accepted, Net.SHUT_WR) == 0);
            check(calls.close(accepted) == 0);
            check(calls.close(connecting) == 0);
        }

        /** A check that builds no message unless it fails: the measured rounds allocate nothing of their own. */
        private static void check(final boolean condition)
        {
            if (!condition)
            {
                throw new AssertionError("a call in the round failed");
            }
        }

        @Override
        public void close()
        {
            epoll.close();
            calls.close(server);
            calls.close(client);
            calls.close(listener);
        }
    }
}
