package io.celer.linux;

/**
 * The {@code errno} values a reactor acts on, as Linux defines them on x86-64 and AArch64 alike. {@link Syscalls}
 * returns them negated.
 */
public final class Errno
{
    /** Interrupted by a signal: try again. */
    public static final int EINTR = 4;
    /** Not connected (yet). */
    public static final int ENOTCONN = 107;
    /** A connection aborted before it was accepted. */
    public static final int ECONNABORTED = 103;
    /** Nothing to read, no room to write, no connection to accept: wait for readiness. */
    public static final int EAGAIN = 11;
    /** A bad file descriptor. */
    public static final int EBADF = 9;
    /** The process has no descriptor left. */
    public static final int EMFILE = 24;
    /** The system has no descriptor left. */
    public static final int ENFILE = 23;
    /** The peer closed: writing is over. */
    public static final int EPIPE = 32;
    /** The address is in use. */
    public static final int EADDRINUSE = 98;
    /** The peer reset the connection. */
    public static final int ECONNRESET = 104;
    /** No kernel memory for a socket buffer. */
    public static final int ENOBUFS = 105;
    /** The connection was refused. */
    public static final int ECONNREFUSED = 111;
    /** A non-blocking connect is under way. */
    public static final int EINPROGRESS = 115;
    /** A datagram too long for the socket. */
    public static final int EMSGSIZE = 90;
    /** Not enough memory. */
    public static final int ENOMEM = 12;
    /** Operation not permitted (io_uring disabled, say). */
    public static final int EPERM = 1;
    /** No such entry (nothing to cancel). */
    public static final int ENOENT = 2;
    /** Busy: completions must be reaped before more are submitted. */
    public static final int EBUSY = 16;
    /** Invalid argument (flags a kernel does not know). */
    public static final int EINVAL = 22;
    /** No such system call. */
    public static final int ENOSYS = 38;
    /** Timer expired (a wait that ran out). */
    public static final int ETIME = 62;
    /** Operation cancelled. */
    public static final int ECANCELED = 125;
    /** Address family not supported (no IPv6 in this kernel, say). */
    public static final int EAFNOSUPPORT = 97;

    private Errno()
    {
    }

    /**
     * A value's name, for messages.
     *
     * @param errno a positive value, or a negated one as the calls return it.
     * @return its name, or {@code errno N} for one not listed here.
     */
    public static String name(final int errno)
    {
        final int value = Math.abs(errno);
        return switch (value)
        {
            case EINTR -> "EINTR";
            case EAGAIN -> "EAGAIN";
            case EBADF -> "EBADF";
            case EMFILE -> "EMFILE";
            case ENFILE -> "ENFILE";
            case EPIPE -> "EPIPE";
            case EADDRINUSE -> "EADDRINUSE";
            case ECONNRESET -> "ECONNRESET";
            case ENOBUFS -> "ENOBUFS";
            case ECONNREFUSED -> "ECONNREFUSED";
            case EINPROGRESS -> "EINPROGRESS";
            case ENOTCONN -> "ENOTCONN";
            case ECONNABORTED -> "ECONNABORTED";
            case EAFNOSUPPORT -> "EAFNOSUPPORT";
            case 110 -> "ETIMEDOUT";
            case 113 -> "EHOSTUNREACH";
            case 101 -> "ENETUNREACH";
            case ENOMEM -> "ENOMEM";
            case EPERM -> "EPERM";
            case ENOENT -> "ENOENT";
            case EBUSY -> "EBUSY";
            case EINVAL -> "EINVAL";
            case ENOSYS -> "ENOSYS";
            case ETIME -> "ETIME";
            case ECANCELED -> "ECANCELED";
            case EMSGSIZE -> "EMSGSIZE";
            default -> "errno " + value;
        };
    }
}
