package io.celer.linux;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Arrays;

/**
 * System calls entered with the x86-64 {@code syscall} instruction from a stub of 25 bytes in executable memory,
 * not through the C library: the kernel itself returns {@code -errno} on failure, so no {@code errno} has to be
 * captured, and a call takes and returns only {@code long}s.
 *
 * <p>Why not the C library's functions: they leave a failure's cause in {@code errno}, which the JVM may change
 * before Java code reads it (a safepoint the thread blocks at waits on a futex, which sets it), so a downcall must
 * capture it with {@link Linker.Option#captureCallState}; and the JDK slices the capture segment on every such
 * call, an object that only C2's escape analysis removes. A call on a path run too rarely to reach C2 (an
 * {@code epoll_ctl} when a connection's interest changes, the read of an eventfd after a wake-up) then allocates
 * each time. Reading {@code errno} through {@code __errno_location()} after the call is no way out, for that same
 * futex. This stub has none of it: nothing is allocated at any compiler tier.
 *
 * <p>The stub takes the call's number then up to six arguments, as the System V calling convention passes them
 * ({@code rdi, rsi, rdx, rcx, r8, r9}, then the stack), and moves them where the kernel takes them
 * ({@code rax; rdi, rsi, rdx, r10, r8, r9}). Its memory is mapped as the JVM maps its own compiled code, so it is
 * there wherever the JIT is. Elsewhere (another architecture, a mapping refused) or with
 * {@code -Dceler.linux.syscalls=libc}, {@link #AVAILABLE} is false and {@link Syscalls} calls the C library.
 */
final class DirectSyscalls
{
    /** Whether the stub is in place. */
    static final boolean AVAILABLE;

    // The calls' numbers on x86-64 (arch/x86/entry/syscalls/syscall_64.tbl).
    static final long READ = 0;
    static final long WRITE = 1;
    static final long CLOSE = 3;
    static final long WRITEV = 20;
    static final long SOCKET = 41;
    static final long CONNECT = 42;
    static final long SENDTO = 44;
    static final long RECVFROM = 45;
    static final long SHUTDOWN = 48;
    static final long BIND = 49;
    static final long LISTEN = 50;
    static final long GETSOCKNAME = 51;
    static final long GETPEERNAME = 52;
    static final long SETSOCKOPT = 54;
    static final long GETSOCKOPT = 55;
    static final long EPOLL_WAIT = 232;
    static final long EPOLL_CTL = 233;
    static final long ACCEPT4 = 288;
    static final long IO_URING_ENTER = 426;

    /**
     * mov rax, rdi; mov rdi, rsi; mov rsi, rdx; mov rdx, rcx; mov r10, r8; mov r8, r9; mov r9, [rsp + 8];
     * syscall; ret. A call with fewer arguments leaves the last registers as they were, which the kernel ignores
     * for it; [rsp + 8] is then a word of the caller's frame, readable, and ignored too.
     */
    private static final byte[] X86_64_STUB = {
        0x48, (byte)0x89, (byte)0xf8,
        0x48, (byte)0x89, (byte)0xf7,
        0x48, (byte)0x89, (byte)0xd6,
        0x48, (byte)0x89, (byte)0xca,
        0x4d, (byte)0x89, (byte)0xc2,
        0x4d, (byte)0x89, (byte)0xc8,
        0x4c, (byte)0x8b, 0x4c, 0x24, 0x08,
        0x0f, 0x05,
        (byte)0xc3,
    };

    private static final int PROT_READ = 0x1;
    private static final int PROT_WRITE = 0x2;
    private static final int PROT_EXEC = 0x4;
    private static final int MAP_PRIVATE = 0x02;
    private static final int MAP_ANONYMOUS = 0x20;
    private static final long PAGE = 4096;

    /** Calls that return at once, critical as {@link Syscalls}' own: no thread-state transition. */
    private static final MethodHandle CALL3;
    private static final MethodHandle CALL4;
    private static final MethodHandle CALL6;
    /** Calls that may block, with the transition that lets a safepoint proceed meanwhile. */
    private static final MethodHandle BLOCKING4;
    private static final MethodHandle BLOCKING6;

    static
    {
        final MemorySegment stub = "libc".equals(System.getProperty("celer.linux.syscalls")) ? MemorySegment.NULL
            : stub(System.getProperty("os.arch"));
        AVAILABLE = stub.address() != 0;
        CALL3 = AVAILABLE ? link(stub, 3, true) : null;
        CALL4 = AVAILABLE ? link(stub, 4, true) : null;
        CALL6 = AVAILABLE ? link(stub, 6, true) : null;
        BLOCKING4 = AVAILABLE ? link(stub, 4, false) : null;
        BLOCKING6 = AVAILABLE ? link(stub, 6, false) : null;
    }

    private DirectSyscalls()
    {
    }

    /**
     * The stub in a page of its own, mapped writable, written, then made executable and read-only; NULL where
     * there is none.
     */
    private static MemorySegment stub(final String arch)
    {
        if (!"amd64".equals(arch) && !"x86_64".equals(arch))
        {
            return MemorySegment.NULL;
        }
        try
        {
            final Linker linker = Linker.nativeLinker();
            final MethodHandle mmap = linker.downcallHandle(linker.defaultLookup().find("mmap").orElseThrow(),
                FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG));
            final MethodHandle mprotect = linker.downcallHandle(linker.defaultLookup().find("mprotect").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT));
            final long page = (long)mmap.invokeExact(0L, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                -1, 0L);
            if (page == -1L)
            {
                return MemorySegment.NULL;
            }
            MemorySegment.copy(X86_64_STUB, 0, MemorySegment.ofAddress(page).reinterpret(PAGE),
                JAVA_BYTE, 0, X86_64_STUB.length);
            // Never unmapped: the handles below hold its address for the JVM's life.
            return (int)mprotect.invokeExact(page, PAGE, PROT_READ | PROT_EXEC) == 0 ? MemorySegment.ofAddress(page)
                : MemorySegment.NULL;
        }
        catch (final Throwable t)
        {
            // No stub, no loss: the C library's calls remain.
            return MemorySegment.NULL;
        }
    }

    private static MethodHandle link(final MemorySegment stub, final int arguments, final boolean critical)
    {
        final MemoryLayout[] longs = new MemoryLayout[arguments + 1];
        Arrays.fill(longs, JAVA_LONG);
        final FunctionDescriptor descriptor = FunctionDescriptor.of(JAVA_LONG, longs);
        return critical ? Linker.nativeLinker().downcallHandle(stub, descriptor, Linker.Option.critical(false))
            : Linker.nativeLinker().downcallHandle(stub, descriptor);
    }

    /**
     * A call of three arguments that returns at once.
     *
     * @return what the kernel returned: the result, or -errno.
     */
    static long call3(final long number, final long a, final long b, final long c)
    {
        try
        {
            return (long)CALL3.invokeExact(number, a, b, c);
        }
        catch (final Throwable t)
        {
            throw Syscalls.failed(t);
        }
    }

    /**
     * A call of four arguments that returns at once.
     *
     * @return what the kernel returned: the result, or -errno.
     */
    static long call4(final long number, final long a, final long b, final long c, final long d)
    {
        try
        {
            return (long)CALL4.invokeExact(number, a, b, c, d);
        }
        catch (final Throwable t)
        {
            throw Syscalls.failed(t);
        }
    }

    /**
     * A call of six arguments that returns at once.
     *
     * @return what the kernel returned: the result, or -errno.
     */
    static long call6(final long number, final long a, final long b, final long c, final long d, final long e,
        final long f)
    {
        try
        {
            return (long)CALL6.invokeExact(number, a, b, c, d, e, f);
        }
        catch (final Throwable t)
        {
            throw Syscalls.failed(t);
        }
    }

    /**
     * A call of four arguments that may block.
     *
     * @return what the kernel returned: the result, or -errno.
     */
    static long blocking4(final long number, final long a, final long b, final long c, final long d)
    {
        try
        {
            return (long)BLOCKING4.invokeExact(number, a, b, c, d);
        }
        catch (final Throwable t)
        {
            throw Syscalls.failed(t);
        }
    }

    /**
     * A call of six arguments that may block.
     *
     * @return what the kernel returned: the result, or -errno.
     */
    static long blocking6(final long number, final long a, final long b, final long c, final long d, final long e,
        final long f)
    {
        try
        {
            return (long)BLOCKING6.invokeExact(number, a, b, c, d, e, f);
        }
        catch (final Throwable t)
        {
            throw Syscalls.failed(t);
        }
    }
}
