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
 * The system calls an io_uring needs: {@code io_uring_setup}, {@code io_uring_enter} and
 * {@code io_uring_register} (through the C library's {@code syscall}, which glibc has no wrappers for; the
 * per-cycle {@code io_uring_enter} through {@link DirectSyscalls} where it is in place), and
 * {@code mmap} / {@code munmap} for its rings. As {@link Syscalls}: handles in static finals, one instance per
 * thread for its {@code errno}, every call returning -errno on failure, nothing allocated per call.
 */
public final class UringCalls
{
    /** {@code __NR_io_uring_setup}: the same number on x86-64 and arm64 (the generic table). */
    private static final long SYS_IO_URING_SETUP = 425;
    private static final long SYS_IO_URING_ENTER = 426;
    private static final long SYS_IO_URING_REGISTER = 427;
    /** {@code mmap}'s failure value. */
    private static final long MAP_FAILED = -1L;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO =
        CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option ERRNO_OPTION = Linker.Option.captureCallState("errno");

    // syscall(long number, ...): every argument after the number is variadic; each passes as a long, as the
    // kernel takes them (an int in a 64-bit register either way).
    private static final MethodHandle SYSCALL2 = syscall(2);
    private static final MethodHandle SYSCALL4 = syscall(4);
    private static final MethodHandle SYSCALL6 = syscall(6);
    private static final MethodHandle MMAP = LINKER.downcallHandle(symbol("mmap"),
        FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG), ERRNO_OPTION);
    private static final MethodHandle MUNMAP = LINKER.downcallHandle(symbol("munmap"),
        FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG), ERRNO_OPTION);
    private static final MethodHandle CLOSE = LINKER.downcallHandle(symbol("close"),
        FunctionDescriptor.of(JAVA_INT, JAVA_INT), ERRNO_OPTION);

    private final MemorySegment callState;

    /**
     * Calls for the calling thread.
     *
     * @param arena where the calls' {@code errno} lives; it must outlive this.
     * @throws IllegalStateException when this module may not call native code.
     */
    public UringCalls(final Arena arena)
    {
        NativeAccess.check();
        this.callState = arena.allocate(CALL_STATE);
    }

    private static MemorySegment symbol(final String name)
    {
        return LINKER.defaultLookup().find(name)
            .orElseThrow(() -> new UnsatisfiedLinkError("the C library has no " + name));
    }

    private static MethodHandle syscall(final int arguments)
    {
        final MemoryLayout[] layouts = new MemoryLayout[arguments + 1];
        java.util.Arrays.fill(layouts, JAVA_LONG);
        return LINKER.downcallHandle(symbol("syscall"), FunctionDescriptor.of(JAVA_LONG, layouts), ERRNO_OPTION,
            Linker.Option.firstVariadicArg(1));
    }

    private long result(final long value)
    {
        return value >= 0 ? value : -(int)ERRNO.get(callState, 0L);
    }

    private static IllegalStateException failed(final Throwable t)
    {
        return new IllegalStateException("a native call failed in the JVM", t);
    }

    /**
     * {@code io_uring_setup(2)}.
     *
     * @param entries the submission queue's size.
     * @param params  a {@code struct io_uring_params}'s address: flags in, offsets and features out.
     * @return the ring's descriptor, or -errno.
     */
    public int setup(final int entries, final long params)
    {
        try
        {
            return (int)result((long)SYSCALL2.invokeExact(callState, SYS_IO_URING_SETUP, (long)entries, params));
        }
        catch (final Throwable t)
        {
            throw failed(t);
        }
    }

    /**
     * {@code io_uring_enter(2)}: submits, and with {@code IORING_ENTER_GETEVENTS} runs pending work and waits.
     *
     * @param fd          the ring.
     * @param toSubmit    submission entries made ready.
     * @param minComplete completions to wait for.
     * @param flags       {@code IORING_ENTER_*}.
     * @param arg         0, or with {@code IORING_ENTER_EXT_ARG} a {@code struct io_uring_getevents_arg}'s address.
     * @param argSize     that struct's size, or 0.
     * @return entries submitted, or -errno.
     */
    public int enter(final int fd, final int toSubmit, final int minComplete, final int flags, final long arg,
        final long argSize)
    {
        if (DirectSyscalls.AVAILABLE)
        {
            // A reactor enters its ring once per cycle: straight to the kernel, with no errno to capture.
            return (int)(minComplete > 0
                ? DirectSyscalls.blocking6(DirectSyscalls.IO_URING_ENTER, fd, toSubmit, minComplete, flags, arg, argSize)
                : DirectSyscalls.call6(DirectSyscalls.IO_URING_ENTER, fd, toSubmit, minComplete, flags, arg, argSize));
        }
        try
        {
            return (int)result((long)SYSCALL6.invokeExact(callState, SYS_IO_URING_ENTER, (long)fd, (long)toSubmit,
                (long)minComplete, (long)flags, arg, argSize));
        }
        catch (final Throwable t)
        {
            throw failed(t);
        }
    }

    /**
     * {@code io_uring_register(2)}.
     *
     * @param fd     the ring.
     * @param opcode {@code IORING_REGISTER_*}.
     * @param arg    its argument's address.
     * @param count  how many of them.
     * @return 0 or a result, or -errno.
     */
    public int register(final int fd, final int opcode, final long arg, final int count)
    {
        try
        {
            return (int)result((long)SYSCALL4.invokeExact(callState, SYS_IO_URING_REGISTER, (long)fd, (long)opcode,
                arg, (long)count));
        }
        catch (final Throwable t)
        {
            throw failed(t);
        }
    }

    /**
     * {@code mmap(2)} of a ring's part, shared with the kernel.
     *
     * @param length bytes.
     * @param fd     the ring.
     * @param offset which part ({@code IORING_OFF_*}).
     * @return the address, or -errno.
     */
    public long mapShared(final long length, final int fd, final long offset)
    {
        try
        {
            // PROT_READ | PROT_WRITE; MAP_SHARED | MAP_POPULATE: the rings are touched at once, no fault later.
            final long address = (long)MMAP.invokeExact(callState, 0L, length, 0x3, 0x1 | 0x8000, fd, offset);
            return address == MAP_FAILED ? -(int)ERRNO.get(callState, 0L) : address;
        }
        catch (final Throwable t)
        {
            throw failed(t);
        }
    }

    /**
     * {@code munmap(2)}.
     *
     * @param address what {@link #mapShared} returned.
     * @param length  its length.
     * @return 0, or -errno.
     */
    public int unmap(final long address, final long length)
    {
        try
        {
            return (int)result((int)MUNMAP.invokeExact(callState, address, length));
        }
        catch (final Throwable t)
        {
            throw failed(t);
        }
    }

    /**
     * {@code close(2)} of a ring's descriptor.
     *
     * @param fd the ring.
     * @return 0, or -errno.
     */
    public int close(final int fd)
    {
        try
        {
            return (int)result((int)CLOSE.invokeExact(callState, fd));
        }
        catch (final Throwable t)
        {
            throw failed(t);
        }
    }
}
