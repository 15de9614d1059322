package io.celer.linux;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Socket constants of Linux (the same on x86-64 and AArch64), and the IPv4 socket address the calls take.
 */
public final class Net
{
    /** IPv4. */
    public static final int AF_INET = 2;
    /** A stream socket: TCP. */
    public static final int SOCK_STREAM = 1;
    /** A datagram socket: UDP. */
    public static final int SOCK_DGRAM = 2;
    /** With {@code socket} or {@code accept4}: the new descriptor does not block. */
    public static final int SOCK_NONBLOCK = 0x800;
    /** With {@code socket} or {@code accept4}: the new descriptor closes on exec. */
    public static final int SOCK_CLOEXEC = 0x80000;
    /** Socket-level options. */
    public static final int SOL_SOCKET = 1;
    /** Binds a port still in TIME_WAIT. */
    public static final int SO_REUSEADDR = 2;
    /** Several sockets share a port; the kernel spreads connections between them. */
    public static final int SO_REUSEPORT = 15;
    /** TCP-level options. */
    public static final int IPPROTO_TCP = 6;
    /** Sends small segments at once. */
    public static final int TCP_NODELAY = 1;
    /** Shuts the receiving side. */
    public static final int SHUT_RD = 0;
    /** Shuts the sending side. */
    public static final int SHUT_WR = 1;
    /** A non-blocking connect's outcome, as an errno. */
    public static final int SO_ERROR = 4;
    /** The send buffer's size. */
    public static final int SO_SNDBUF = 7;
    /** The receive buffer's size. */
    public static final int SO_RCVBUF = 8;
    /** Keep-alive probes. */
    public static final int SO_KEEPALIVE = 9;
    /** {@code send} flag: no {@code SIGPIPE} on a closed peer, {@code EPIPE} instead. */
    public static final int MSG_NOSIGNAL = 0x4000;
    /** The size of a {@code struct sockaddr_in}. */
    public static final int SOCKADDR_IN_SIZE = 16;

    private static final ValueLayout.OfShort NETWORK_SHORT =
        ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfInt NETWORK_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private Net()
    {
    }

    /**
     * Writes a {@code struct sockaddr_in}.
     *
     * @param address where, at least {@link #SOCKADDR_IN_SIZE} bytes.
     * @param ipv4    the four bytes of the address, most significant first (127.0.0.1 is {@code 0x7f000001}).
     * @param port    the port.
     */
    public static void writeInet4(final MemorySegment address, final int ipv4, final int port)
    {
        address.fill((byte)0);
        address.set(ValueLayout.JAVA_SHORT_UNALIGNED, 0, (short)AF_INET);
        address.set(NETWORK_SHORT, 2, (short)port);
        address.set(NETWORK_INT, 4, ipv4);
    }

    /**
     * The port of a {@code struct sockaddr_in}.
     *
     * @param address the structure.
     * @return the port.
     */
    public static int inet4Port(final MemorySegment address)
    {
        return Short.toUnsignedInt(address.get(NETWORK_SHORT, 2));
    }

    /**
     * The address of a {@code struct sockaddr_in}.
     *
     * @param address the structure.
     * @return its four bytes, most significant first.
     */
    public static int inet4Address(final MemorySegment address)
    {
        return address.get(NETWORK_INT, 4);
    }
}
