package io.celer.linux;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Socket constants of Linux (the same on x86-64 and AArch64), and the IPv4 and IPv6 socket addresses the calls
 * take.
 */
public final class Net
{
    /** IPv4. */
    public static final int AF_INET = 2;
    /** IPv6. */
    public static final int AF_INET6 = 10;
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
    /** Datagrams may go to a broadcast address. */
    public static final int SO_BROADCAST = 6;
    /** IPv4-level options. */
    public static final int IPPROTO_IP = 0;
    /** IPv6-level options. */
    public static final int IPPROTO_IPV6 = 41;
    /** The IPv4 type-of-service byte. */
    public static final int IP_TOS = 1;
    /** The IPv4 multicast time to live. */
    public static final int IP_MULTICAST_TTL = 33;
    /** Whether IPv4 multicast loops back to this host. */
    public static final int IP_MULTICAST_LOOP = 34;
    /** The interface IPv4 multicast leaves by ({@code struct ip_mreqn}). */
    public static final int IP_MULTICAST_IF = 32;
    /** Whether a socket gets the datagrams of every group any socket on the host joined (1, Linux's default). */
    public static final int IP_MULTICAST_ALL = 49;
    /** {@link #IP_MULTICAST_ALL} for IPv6 (Linux 4.20 on). */
    public static final int IPV6_MULTICAST_ALL = 29;
    /** Joins an IPv4 group ({@code struct ip_mreqn}). */
    public static final int IP_ADD_MEMBERSHIP = 35;
    /** Leaves an IPv4 group ({@code struct ip_mreqn}). */
    public static final int IP_DROP_MEMBERSHIP = 36;
    /** The interface IPv6 multicast leaves by (its index). */
    public static final int IPV6_MULTICAST_IF = 17;
    /** Joins an IPv6 group ({@code struct ipv6_mreq}). */
    public static final int IPV6_ADD_MEMBERSHIP = 20;
    /** Leaves an IPv6 group ({@code struct ipv6_mreq}). */
    public static final int IPV6_DROP_MEMBERSHIP = 21;
    /** The IPv6 traffic class. */
    public static final int IPV6_TCLASS = 67;
    /** Whether an IPv6 socket refuses IPv4 peers (0: it takes them, IPv4-mapped). */
    public static final int IPV6_V6ONLY = 26;
    /** The IPv6 multicast hop limit. */
    public static final int IPV6_MULTICAST_HOPS = 18;
    /** Whether IPv6 multicast loops back to this host. */
    public static final int IPV6_MULTICAST_LOOP = 19;
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
    /** The size of a {@code struct sockaddr_in6}. */
    public static final int SOCKADDR_IN6_SIZE = 28;

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

    /**
     * Writes a {@code struct sockaddr_in6}.
     *
     * @param address where, at least {@link #SOCKADDR_IN6_SIZE} bytes.
     * @param ipv6    the sixteen bytes of the address.
     * @param port    the port.
     * @param scopeId the interface of a link-local address, else 0.
     */
    public static void writeInet6(final MemorySegment address, final byte[] ipv6, final int port, final int scopeId)
    {
        address.asSlice(0, SOCKADDR_IN6_SIZE).fill((byte)0);
        address.set(ValueLayout.JAVA_SHORT_UNALIGNED, 0, (short)AF_INET6);
        address.set(NETWORK_SHORT, 2, (short)port);
        MemorySegment.copy(ipv6, 0, address, ValueLayout.JAVA_BYTE, 8, 16);
        address.set(ValueLayout.JAVA_INT_UNALIGNED, 24, scopeId);
    }

    /**
     * The family of a {@code struct sockaddr}.
     *
     * @param address the structure.
     * @return {@link #AF_INET} or {@link #AF_INET6}, say.
     */
    public static int family(final MemorySegment address)
    {
        return address.get(ValueLayout.JAVA_SHORT_UNALIGNED, 0);
    }

    /**
     * The sixteen bytes of a {@code struct sockaddr_in6}'s address.
     *
     * @param address the structure.
     * @return a new array.
     */
    public static byte[] inet6Address(final MemorySegment address)
    {
        return address.asSlice(8, 16).toArray(ValueLayout.JAVA_BYTE);
    }

    /**
     * The scope of a {@code struct sockaddr_in6}: the interface of a link-local address.
     *
     * @param address the structure.
     * @return the interface's index, or 0.
     */
    public static int inet6ScopeId(final MemorySegment address)
    {
        return address.get(ValueLayout.JAVA_INT_UNALIGNED, 24);
    }
}
