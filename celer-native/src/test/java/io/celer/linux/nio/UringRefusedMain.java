package io.celer.linux.nio;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/**
 * A process whose kernel refuses io_uring as a container's seccomp profile does: {@code io_uring_setup} answers
 * EPERM for this thread and the threads it starts. Then the io_uring provider, asked for a selector, must say why
 * once and give an epoll selector, over which its channels echo. Prints what it found, one fact a line.
 */
public final class UringRefusedMain
{
    private static final int PR_SET_NO_NEW_PRIVS = 38;
    private static final int PR_SET_SECCOMP = 22;
    private static final int SECCOMP_MODE_FILTER = 2;
    private static final int SYS_IO_URING_SETUP = 425;

    private UringRefusedMain()
    {
    }

    /**
     * Runs.
     *
     * @param args none.
     * @throws Throwable whatever fails, which fails the test that runs it.
     */
    public static void main(final String[] args) throws Throwable
    {
        refuseIoUring();
        final UringSelectorProvider provider = new UringSelectorProvider(16, 1024, 4096);
        System.out.println("refusal=" + provider.refusal());
        try (Selector selector = provider.openSelector();
            ServerSocketChannel listener = provider.openServerSocketChannel())
        {
            System.out.println("selector=" + selector.getClass().getSimpleName());
            // Asked again: no second line in the log.
            provider.openSelector().close();
            listener.bind(new InetSocketAddress("127.0.0.1", 0));
            listener.configureBlocking(false);
            listener.register(selector, SelectionKey.OP_ACCEPT);
            try (Socket peer = new Socket("127.0.0.1", ((InetSocketAddress)listener.getLocalAddress()).getPort()))
            {
                peer.setSoTimeout(30_000);
                peer.getOutputStream().write("ping".getBytes(StandardCharsets.US_ASCII));
                SocketChannel channel = null;
                final ByteBuffer buffer = ByteBuffer.allocate(4);
                final long deadline = System.nanoTime() + 30_000_000_000L;
                while (buffer.hasRemaining() && System.nanoTime() < deadline)
                {
                    selector.select(10);
                    selector.selectedKeys().clear();
                    if (channel == null)
                    {
                        channel = listener.accept();
                        if (channel != null)
                        {
                            channel.configureBlocking(false);
                            channel.register(selector, SelectionKey.OP_READ);
                        }
                    }
                    else
                    {
                        channel.read(buffer);
                    }
                }
                channel.write(buffer.flip());
                final InputStream in = peer.getInputStream();
                System.out.println("echo=" + new String(in.readNBytes(4), StandardCharsets.US_ASCII));
                channel.close();
            }
        }
    }

    /** A seccomp filter: io_uring_setup fails with EPERM, every other call is allowed. */
    private static void refuseIoUring() throws Throwable
    {
        final Linker linker = Linker.nativeLinker();
        final MethodHandle prctl = linker.downcallHandle(linker.defaultLookup().find("prctl").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG),
            Linker.Option.firstVariadicArg(1));
        final Arena arena = Arena.global();
        final MemorySegment filter = arena.allocate(4 * 8, 8);
        // ld [0] (the call's number); jeq 425 ? next : skip one; ret ERRNO|EPERM; ret ALLOW
        instruction(filter, 0, 0x20, 0, 0, 0);
        instruction(filter, 1, 0x15, 0, 1, SYS_IO_URING_SETUP);
        instruction(filter, 2, 0x06, 0, 0, 0x0005_0000 | 1);
        instruction(filter, 3, 0x06, 0, 0, 0x7fff_0000);
        final MemorySegment program = arena.allocate(16, 8);
        program.set(JAVA_SHORT, 0, (short)4);
        program.set(ADDRESS, 8, filter);
        if ((int)prctl.invokeExact(PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L, 0L) != 0 ||
            (int)prctl.invokeExact(PR_SET_SECCOMP, (long)SECCOMP_MODE_FILTER, program.address(), 0L, 0L) != 0)
        {
            throw new IllegalStateException("the seccomp filter was refused");
        }
    }

    private static void instruction(final MemorySegment filter, final int index, final int code, final int jt,
        final int jf, final int k)
    {
        final long at = 8L * index;
        filter.set(JAVA_SHORT, at, (short)code);
        filter.set(java.lang.foreign.ValueLayout.JAVA_BYTE, at + 2, (byte)jt);
        filter.set(java.lang.foreign.ValueLayout.JAVA_BYTE, at + 3, (byte)jf);
        filter.set(JAVA_INT, at + 4, k);
    }
}
