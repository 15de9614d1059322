package io.celer.linux;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * The Linux system calls a reactor needs, called through downcall handles held in static finals: no JNI. One
 * instance per thread, since each holds the place where its calls through the C library leave {@code errno}; on
 * x86-64 the calls made per message or per connection (reads, writes, sends, receives, accepts, connects, socket
 * options, addresses, shutdowns, closes, epoll) enter the kernel directly instead (see {@link DirectSyscalls}),
 * which allocates nothing where the JDK's capture of {@code errno} may.
 *
 * <p>Every call returns what the kernel returns on success and {@code -errno} on failure (see {@link Errno}), as
 * the kernel's own interface does: a failure on the hot path (a socket with nothing to read, say) costs no
 * exception. Memory is passed as an address and a length, so a caller can keep the addresses of its buffers
 * rather than wrap them per call. Calls that return at once (reads, writes, accepts on non-blocking sockets) are
 * linked as critical: they skip the thread-state transition a call that may block needs; {@link #epollWait} and
 * {@link #close} may block and are not.
 */
public final class Syscalls
{
    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO =
        CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option ERRNO_OPTION = Linker.Option.captureCallState("errno");
    private static final Linker.Option CRITICAL = Linker.Option.critical(false);

    private static final MethodHandle SOCKET = quick("socket", JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT);
    private static final MethodHandle BIND = quick("bind", JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_INT);
    private static final MethodHandle LISTEN = quick("listen", JAVA_INT, JAVA_INT, JAVA_INT);
    private static final MethodHandle ACCEPT4 = quick("accept4", JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT);
    private static final MethodHandle CONNECT = quick("connect", JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_INT);
    private static final MethodHandle READ = quick("read", JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG);
    private static final MethodHandle WRITE = quick("write", JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG);
    private static final MethodHandle SEND = quick("send", JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT);
    private static final MethodHandle SENDTO =
        quick("sendto", JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_INT);
    private static final MethodHandle RECVFROM =
        quick("recvfrom", JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG);
    private static final MethodHandle WRITEV = quick("writev", JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_INT);
    private static final MethodHandle SHUTDOWN = quick("shutdown", JAVA_INT, JAVA_INT, JAVA_INT);
    private static final MethodHandle SETSOCKOPT =
        quick("setsockopt", JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_INT);
    private static final MethodHandle GETSOCKNAME = quick("getsockname", JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG);
    private static final MethodHandle GETPEERNAME = quick("getpeername", JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG);
    private static final MethodHandle GETSOCKOPT =
        quick("getsockopt", JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG);
    private static final MethodHandle EPOLL_CREATE1 = quick("epoll_create1", JAVA_INT, JAVA_INT);
    private static final MethodHandle EPOLL_CTL = quick("epoll_ctl", JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG);
    private static final MethodHandle EVENTFD = quick("eventfd", JAVA_INT, JAVA_INT, JAVA_INT);
    private static final MethodHandle EPOLL_WAIT = blocking("epoll_wait", JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_INT,
        JAVA_INT);
    private static final MethodHandle CLOSE = blocking("close", JAVA_INT, JAVA_INT);

    /** The hot calls (reads, writes, accepts, epoll) enter the kernel directly where they can: see DirectSyscalls. */
    private static final boolean DIRECT = DirectSyscalls.AVAILABLE;

    private final MemorySegment callState;

    /**
     * Calls for the calling thread.
     *
     * @param arena where the calls' {@code errno} lives; it must outlive this.
     * @throws IllegalStateException when this module may not call native code.
     */
    public Syscalls(final Arena arena)
    {
        NativeAccess.check();
        this.callState = arena.allocate(CALL_STATE);
    }

    private static MethodHandle quick(final String name, final MemoryLayout result, final MemoryLayout... args)
    {
        return link(name, FunctionDescriptor.of(result, args), ERRNO_OPTION, CRITICAL);
    }

    private static MethodHandle blocking(final String name, final MemoryLayout result, final MemoryLayout... args)
    {
        return link(name, FunctionDescriptor.of(result, args), ERRNO_OPTION);
    }

    private static MethodHandle link(final String name, final FunctionDescriptor descriptor,
        final Linker.Option... options)
    {
        // Pointers pass as longs: a 64-bit address is an integer register either way, and a long needs no
        // MemorySegment per call.
        final MemorySegment symbol = LINKER.defaultLookup().find(name)
            .orElseThrow(() -> new UnsatisfiedLinkError("the C library has no " + name));
        return LINKER.downcallHandle(symbol, descriptor, options);
    }

    private int errno()
    {
        return (int)ERRNO.get(callState, 0L);
    }

    private int result(final int value)
    {
        return value >= 0 ? value : -errno();
    }

    private long result(final long value)
    {
        return value >= 0 ? value : -errno();
    }

    static IllegalStateException failed(final Throwable t)
    {
        // invokeExact declares Throwable; a downcall with these exact types throws nothing of its own.
        return new IllegalStateException("a native call failed in the JVM", t);
    }

    /**
     * {@code socket(2)}.
     *
     * @param domain   {@link Net#AF_INET}, say.
     * @param type     {@link Net#SOCK_STREAM} with flags such as {@link Net#SOCK_NONBLOCK}.
     * @param protocol 0 for the default.
     * @return the descriptor, or -errno.
     */
    public int socket(final int domain, final int type, final int protocol)
    {
        try
        {
            return DIRECT ? (int)DirectSyscalls.call3(DirectSyscalls.SOCKET, domain, type, protocol)
                : result((int)SOCKET.invokeExact(callState, domain, type, protocol));
        }
        catch (final Throwable t)
        {
            throw failed(t);
        }
    }

    /**
     * {@code bind(2)}.
     *
     * @param fd      the socket.
     * @param address a {@code sockaddr}'s address.
     * @param length  its length.
     * @return 0, or -errno.
     */
    public int bind(final int fd, final long address, final int length)
    {
        try
        {
            return DIRECT ? (int)DirectSyscalls.call3(DirectSyscalls.BIND, fd, address, length)
                : result((int)BIND.invokeExact(callState, fd, address, length));
        }
        catch (final Throwable t)
        {
            throw failed(t);
        }
    }

    /**
     * {@code listen(2)}.
     *
     * @param fd      the bound socket.
     * @param backlog pending connections the kernel keeps.
     * @return 0, or -errno.
     */
    public int listen(final int fd, final int backlog)
    {
        try
        {
            return DIRECT ? (int)DirectSyscalls.call3(DirectSyscalls.LISTEN, fd, backlog, 0L)
                : result((int)LISTEN.invokeExact(callState, fd, backlog));
        }
        catch (final Throwable t)
        {
            throw failed(t);
        }
    }

    /**
     * {@code accept4(2)}, without the peer's address.
     *
     * @param fd    the listening socket.
     * @param flags {@link Net#SOCK_NONBLOCK} and {@link Net#SOCK_CLOEXEC}, say.
     * @return the new connection's descriptor, or -errno ({@link Errno#EAGAIN} when none waits).
     */
    public int accept(final int fd, final int flags)
    {
        try
        {
            return DIRECT ? (int)DirectSyscalls.call4(DirectSyscalls.ACCEPT4, fd, 0L, 0L, flags)
                : result((int)ACCEPT4.invokeExact(callState, fd, 0L, 0L, flags));
        }
        catch (final Throwable t)
        {
            throw failed(t);
        }
    }

    /**
     * {@code accept4(2)}, with the peer's address.
     *
     * @param fd      the listening socket.
     * @param address where the peer's {@code sockaddr} goes.
     * @param length  the address of an {@code int} holding the room, then the length written.
     * @param flags   {@link Net#SOCK_NONBLOCK} and {@link Net#SOCK_CLOEXEC}, say.
     * @return the new connection's descriptor, or -errno ({@link Errno#EAGAIN} when none waits).
     */
    public int accept(final int fd, final long address, final long length, final int flags)
    {
        try
        {
            return DIRECT ? (int)DirectSyscalls.call4(DirectSyscalls.ACCEPT4, fd, address, length, flags)
                : result((int)ACCEPT4.invokeExact(callState, fd, address, length, flags));
        }
        catch (final Throwable t)
        {
            throw failed(t);
        }
    }

    /**
     * {@code connect(2)}.
     *
     * @param fd      the socket.
     * @param address a {@code sockaddr}'s address.
     * @param length  its length.
     * @return 0, or -errno ({@link Errno#EINPROGRESS} on a non-blocking socket still connecting).
     */
    public int connect(final int fd, final long address, final int length)
    {
        try
        {
            return DIRECT ? (int)DirectSyscalls.call3(DirectSyscalls.CONNECT, fd, address, length)
                : result((int)CONNECT.invokeExact(callState, fd, address, length));
        }
        catch (final Throwable t)
        {
            throw failed(t);
        }
    }

    /**
     * {@code read(2)}.
     *
     * @param fd      the descriptor.
     * @param address where the bytes go.
     * @param length  the most bytes to read.
     * @return bytes read, 0 at the end of the stream, or -errno.
     */
    public long read(final int fd, final long address, final long length)
    {
        try
        {
            return DIRECT ? DirectSyscalls.call3(DirectSyscalls.READ, fd, address, length)
                : result((long)READ.invokeExact(callState, fd, address, length));
        }
        catch (final Throwable t)
        {
            throw failed(t);
        }
    }

    /**
     * {@code write(2)}.
     *
     * @param fd      the descriptor.
     * @param address the bytes.
     * @param length  how many.
     * @return bytes written, or -errno.
     */
    public long write(final int fd, final long address, final long length)
    {
        try
        {
            return DIRECT ? DirectSyscalls.call3(DirectSyscalls.WRITE, fd, address, length)
                : result((long)WRITE.invokeExact(callState, fd, address, length));
        }
        catch (final Throwable t)
        {
            throw failed(t);
        }
    }

    /**
     * {@code send(2)}: {@code write} on a socket, with flags such as {@link Net#MSG_NOSIGNAL}, which turns the
     * {@code SIGPIPE} of a write to a closed peer into {@link Errno#EPIPE}.
     *
     * @param fd      the socket.
     * @param address the bytes.
     * @param length  how many.
     * @param flags   the flags.
     * @return bytes sent, or -errno.
     */
    public long send(final int fd, final long address, final long length, final int flags)
    {
        try
        {
            // send(2) is sendto(2) with no address, as the C library makes it.
            return DIRECT ? DirectSyscalls.call6(DirectSyscalls.SENDTO, fd, address, length, flags, 0L, 0L)
                : result((long)SEND.invokeExact(callState, fd, address, length, flags));
        }
        catch (final Throwable t)
        {
            throw failed(t);
        }
    }

    /**
     * {@code sendto(2)}: a datagram to an address.
     *
     * @param fd            the socket.
     * @param address       the bytes.
     * @param length        how many.
     * @param flags         the flags.
     * @param target        a {@code sockaddr}'s address, or 0 on a connected socket.
     * @param targetLength  its length.
     * @return bytes sent, or -errno.
     */
    public long sendTo(final int fd, final long address, final long length, final int flags, final long target,
        final int targetLength)
    {
        try
        {
            return DIRECT
                ? DirectSyscalls.call6(DirectSyscalls.SENDTO, fd, address, length, flags, target, targetLength)
                : result((long)SENDTO.invokeExact(callState, fd, address, length, flags, target, targetLength));
        }
        catch (final Throwable t)
        {
            throw failed(t);
        }
    }

    /**
     * {@code recvfrom(2)}: a datagram and its sender's address.
     *
     * @param fd            the socket.
     * @param address       where the bytes go; a longer datagram is cut to {@code length}.
     * @param length        the room.
     * @param flags         the flags.
     * @param sender        where the sender's {@code sockaddr} goes.
     * @param senderLength  the address of an {@code int} holding the room, then the length written.
     * @return bytes received, or -errno ({@link Errno#EAGAIN} when none waits).
     */
    public long receiveFrom(final int fd, final long address, final long length, final int flags, final long sender,
        final long senderLength)
    {
        try
        {
            return DIRECT
                ? DirectSyscalls.call6(DirectSyscalls.RECVFROM, fd, address, length, flags, sender, senderLength)
                : result((long)RECVFROM.invokeExact(callState, fd, address, length, flags, sender, senderLength));
        }
        catch (final Throwable t)
        {
            throw failed(t);
        }
    }

    /**
     * {@code writev(2)}: several buffers in one call.
     *
     * @param fd     the descriptor.
     * @param iovecs the address of {@code count} {@code struct iovec}s: each a base address and a length, as longs.
     * @param count  how many.
     * @return bytes written, or -errno.
     */
    public long writev(final int fd, final long iovecs, final int count)
    {
        try
        {
            return DIRECT ? DirectSyscalls.call3(DirectSyscalls.WRITEV, fd, iovecs, count)
                : result((long)WRITEV.invokeExact(callState, fd, iovecs, count));
        }
        catch (final Throwable t)
        {
            throw failed(t);
        }
    }

    /**
     * {@code shutdown(2)}.
     *
     * @param fd  the socket.
     * @param how {@link Net#SHUT_WR}, say.
     * @return 0, or -errno.
     */
    public int shutdown(final int fd, final int how)
    {
        try
        {
            return DIRECT ? (int)DirectSyscalls.call3(DirectSyscalls.SHUTDOWN, fd, how, 0L)
                : result((int)SHUTDOWN.invokeExact(callState, fd, how));
        }
        catch (final Throwable t)
        {
            throw failed(t);
        }
    }

    /**
     * {@code setsockopt(2)} with an {@code int} value.
     *
     * @param fd      the socket.
     * @param level   {@link Net#SOL_SOCKET}, say.
     * @param option  {@link Net#SO_REUSEADDR}, say.
     * @param scratch the address of four writable bytes.
     * @param value   the value.
     * @return 0, or -errno.
     */
    public int setIntOption(final int fd, final int level, final int option, final MemorySegment scratch,
        final int value)
    {
        scratch.set(JAVA_INT, 0, value);
        try
        {
            return DIRECT
                ? (int)DirectSyscalls.call6(DirectSyscalls.SETSOCKOPT, fd, level, option, scratch.address(), 4L, 0L)
                : result((int)SETSOCKOPT.invokeExact(callState, fd, level, option, scratch.address(), 4));
        }
        catch (final Throwable t)
        {
            throw failed(t);
        }
    }

    /**
     * {@code setsockopt(2)} with a structure (a multicast membership, say).
     *
     * @param fd     the socket.
     * @param level  {@link Net#IPPROTO_IP}, say.
     * @param option {@link Net#IP_ADD_MEMBERSHIP}, say.
     * @param value  the structure.
     * @param length its length.
     * @return 0, or -errno.
     */
    public int setOption(final int fd, final int level, final int option, final MemorySegment value,
        final int length)
    {
        try
        {
            return DIRECT
                ? (int)DirectSyscalls.call6(DirectSyscalls.SETSOCKOPT, fd, level, option, value.address(), length, 0L)
                : result((int)SETSOCKOPT.invokeExact(callState, fd, level, option, value.address(), length));
        }
        catch (final Throwable t)
        {
            throw failed(t);
        }
    }

    /**
     * {@code getsockopt(2)} for an {@code int} option.
     *
     * @param fd      the socket.
     * @param level   {@link Net#SOL_SOCKET}, say.
     * @param option  {@link Net#SO_ERROR}, say.
     * @param scratch eight writable bytes: the value, then its length.
     * @return the value (not negative), or -errno.
     */
    public int getIntOption(final int fd, final int level, final int option, final MemorySegment scratch)
    {
        scratch.set(JAVA_INT, 4, 4);
        try
        {
            final int result = DIRECT
                ? (int)DirectSyscalls.call6(DirectSyscalls.GETSOCKOPT, fd, level, option, scratch.address(),
                    scratch.address() + 4, 0L)
                : result((int)GETSOCKOPT.invokeExact(callState, fd, level, option, scratch.address(),
                    scratch.address() + 4));
            return result < 0 ? result : scratch.get(JAVA_INT, 0);
        }
        catch (final Throwable t)
        {
            throw failed(t);
        }
    }

    /**
     * {@code getpeername(2)}.
     *
     * @param fd      the socket.
     * @param address where the {@code sockaddr} goes.
     * @param length  the address of an {@code int} holding the room, then the length written.
     * @return 0, or -errno.
     */
    public int peerAddress(final int fd, final long address, final long length)
    {
        try
        {
            return DIRECT ? (int)DirectSyscalls.call3(DirectSyscalls.GETPEERNAME, fd, address, length)
                : result((int)GETPEERNAME.invokeExact(callState, fd, address, length));
        }
        catch (final Throwable t)
        {
            throw failed(t);
        }
    }

    /**
     * {@code getsockname(2)}.
     *
     * @param fd      the socket.
     * @param address where the {@code sockaddr} goes.
     * @param length  the address of an {@code int} holding the room, then the length written.
     * @return 0, or -errno.
     */
    public int localAddress(final int fd, final long address, final long length)
    {
        try
        {
            return DIRECT ? (int)DirectSyscalls.call3(DirectSyscalls.GETSOCKNAME, fd, address, length)
                : result((int)GETSOCKNAME.invokeExact(callState, fd, address, length));
        }
        catch (final Throwable t)
        {
            throw failed(t);
        }
    }

    /**
     * {@code epoll_create1(2)}.
     *
     * @param flags {@code EPOLL_CLOEXEC}, say.
     * @return the epoll descriptor, or -errno.
     */
    public int epollCreate(final int flags)
    {
        try
        {
            return result((int)EPOLL_CREATE1.invokeExact(callState, flags));
        }
        catch (final Throwable t)
        {
            throw failed(t);
        }
    }

    /**
     * {@code epoll_ctl(2)}.
     *
     * @param epfd  the epoll descriptor.
     * @param op    {@code EPOLL_CTL_ADD}, {@code EPOLL_CTL_MOD} or {@code EPOLL_CTL_DEL}.
     * @param fd    the descriptor watched.
     * @param event the address of a {@code struct epoll_event}.
     * @return 0, or -errno.
     */
    public int epollControl(final int epfd, final int op, final int fd, final long event)
    {
        try
        {
            return DIRECT ? (int)DirectSyscalls.call4(DirectSyscalls.EPOLL_CTL, epfd, op, fd, event)
                : result((int)EPOLL_CTL.invokeExact(callState, epfd, op, fd, event));
        }
        catch (final Throwable t)
        {
            throw failed(t);
        }
    }

    /**
     * {@code epoll_wait(2)}; blocks up to the timeout.
     *
     * @param epfd          the epoll descriptor.
     * @param events        the address of room for {@code maxEvents} {@code struct epoll_event}s.
     * @param maxEvents     how many fit.
     * @param timeoutMillis 0 to return at once, -1 to wait for an event.
     * @return events ready, or -errno ({@link Errno#EINTR} when a signal came first).
     */
    public int epollWait(final int epfd, final long events, final int maxEvents, final int timeoutMillis)
    {
        try
        {
            if (DIRECT)
            {
                // A poll that returns at once needs no thread-state transition; one that may wait does.
                return (int)(timeoutMillis == 0
                    ? DirectSyscalls.call4(DirectSyscalls.EPOLL_WAIT, epfd, events, maxEvents, 0L)
                    : DirectSyscalls.blocking4(DirectSyscalls.EPOLL_WAIT, epfd, events, maxEvents, timeoutMillis));
            }
            return result((int)EPOLL_WAIT.invokeExact(callState, epfd, events, maxEvents, timeoutMillis));
        }
        catch (final Throwable t)
        {
            throw failed(t);
        }
    }

    /**
     * {@code eventfd(2)}.
     *
     * @param initial the counter's first value.
     * @param flags   {@code EFD_NONBLOCK}, say.
     * @return the descriptor, or -errno.
     */
    public int eventFd(final int initial, final int flags)
    {
        try
        {
            return result((int)EVENTFD.invokeExact(callState, initial, flags));
        }
        catch (final Throwable t)
        {
            throw failed(t);
        }
    }

    /**
     * {@code close(2)}.
     *
     * @param fd the descriptor.
     * @return 0, or -errno.
     */
    public int close(final int fd)
    {
        try
        {
            // The blocking form: a close with SO_LINGER set may wait for the peer.
            return DIRECT ? (int)DirectSyscalls.blocking4(DirectSyscalls.CLOSE, fd, 0L, 0L, 0L)
                : result((int)CLOSE.invokeExact(callState, fd));
        }
        catch (final Throwable t)
        {
            throw failed(t);
        }
    }
}
