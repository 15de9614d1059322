package io.celer.linux;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * The two ends the system-call tests share: a native listener on 127.0.0.1, and a JDK socket that pings it.
 */
public final class Loopback
{
    private static final int LOOPBACK = 0x7f000001;

    private Loopback()
    {
    }

    /**
     * A non-blocking listener on 127.0.0.1 and a free port.
     *
     * @param calls   the thread's calls.
     * @param scratch at least 24 bytes of native memory.
     * @param port    receives the port at index 0.
     * @return the listener's descriptor.
     */
    public static int listen(final Syscalls calls, final MemorySegment scratch, final int[] port)
    {
        final int fd = calls.socket(Net.AF_INET, Net.SOCK_STREAM | Net.SOCK_NONBLOCK | Net.SOCK_CLOEXEC, 0);
        assertThat(fd).as("socket: %s", Errno.name(fd)).isPositive();
        assertThat(calls.setIntOption(fd, Net.SOL_SOCKET, Net.SO_REUSEADDR, scratch, 1)).isZero();
        final MemorySegment address = scratch.asSlice(8, Net.SOCKADDR_IN_SIZE);
        Net.writeInet4(address, LOOPBACK, 0);
        assertThat(calls.bind(fd, address.address(), Net.SOCKADDR_IN_SIZE)).isZero();
        assertThat(calls.listen(fd, 128)).isZero();
        scratch.set(ValueLayout.JAVA_INT, 0, Net.SOCKADDR_IN_SIZE);
        assertThat(calls.localAddress(fd, address.address(), scratch.address())).isZero();
        port[0] = Net.inet4Port(address);
        return fd;
    }

    /**
     * Pings an echo server one 8-byte number at a time, checking each pong.
     *
     * @param port  the server's port on 127.0.0.1.
     * @param pings how many.
     */
    public static void ping(final int port, final long pings)
    {
        try (Socket socket = new Socket())
        {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
            socket.setSoTimeout(30_000);
            final DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            final DataInputStream in = new DataInputStream(socket.getInputStream());
            for (long i = 0; i < pings; i++)
            {
                out.writeLong(i);
                out.flush();
                assertThat(in.readLong()).isEqualTo(i);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
