package io.celer.linux.nio;

import java.io.IOException;
import java.net.ProtocolFamily;
import java.nio.channels.DatagramChannel;
import java.nio.channels.Pipe;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.spi.AbstractSelector;
import java.nio.channels.spi.SelectorProvider;

import io.celer.linux.uring.IoUring;

/**
 * Celer's io_uring transport as a {@link SelectorProvider}: selectors over an io_uring whose completions carry TCP
 * connections' bytes (multishot accept, multishot receive into provided buffers, sends from pooled buffers; see
 * {@link UringSelector}), the same native channels as {@link EpollSelectorProvider}'s. A reactor given it
 * ({@code new ReactorConfig().selectorProvider(UringSelectorProvider.INSTANCE)}, or {@code -Dceler.transport=uring})
 * runs every layer above it unchanged. UDP channels are polled for readiness through the ring and do their own
 * calls, as on epoll.
 *
 * <p>Where the kernel refuses an io_uring (before 5.19, {@code kernel.io_uring_disabled}, a container's seccomp
 * filter), its selectors are epoll selectors: the reason is logged once, and the channels work with either.
 */
public final class UringSelectorProvider extends SelectorProvider
{
    /** The provider, with the default ring sizes. */
    public static final UringSelectorProvider INSTANCE = new UringSelectorProvider(
        Integer.getInteger("celer.uring.buffers", 512), Integer.getInteger("celer.uring.bufferSize", 16 * 1024),
        Integer.getInteger("celer.uring.sendBufferSize", 64 * 1024));

    private static final System.Logger LOG = System.getLogger(UringSelectorProvider.class.getName());

    private final int bufferCount;
    private final int bufferSize;
    private final int sendBufferSize;
    private volatile String refusal;
    private volatile boolean refusalKnown;

    /**
     * A provider whose selectors have rings of other sizes.
     *
     * @param bufferCount    provided buffers per selector, shared by its connections' receives; a power of two.
     * @param bufferSize     each one's size.
     * @param sendBufferSize each connection's send buffer, lent while it has bytes to send.
     */
    UringSelectorProvider(final int bufferCount, final int bufferSize, final int sendBufferSize)
    {
        if (bufferCount < 1 || bufferCount > 32_768 || Integer.bitCount(bufferCount) != 1)
        {
            throw new IllegalArgumentException("celer.uring.buffers must be a power of two up to 32768: " +
                bufferCount);
        }
        if (bufferSize < 1 || sendBufferSize < 1)
        {
            throw new IllegalArgumentException("buffer sizes must be positive: " + bufferSize + ", " +
                sendBufferSize);
        }
        this.bufferCount = bufferCount;
        this.bufferSize = bufferSize;
        this.sendBufferSize = sendBufferSize;
    }

    /**
     * Why its selectors fall back to epoll here.
     *
     * @return null when the kernel gives io_uring; else the reason.
     */
    public String refusal()
    {
        if (!refusalKnown)
        {
            synchronized (this)
            {
                if (!refusalKnown)
                {
                    refusal = IoUring.unavailable();
                    refusalKnown = true;
                    if (refusal != null)
                    {
                        LOG.log(System.Logger.Level.WARNING, "io_uring is not available (" + refusal +
                            "): Celer's reactors use epoll instead");
                    }
                }
            }
        }
        return refusal;
    }

    /**
     * A selector over an io_uring, or an epoll selector where the kernel refuses io_uring.
     */
    @Override
    public AbstractSelector openSelector() throws IOException
    {
        if (refusal() != null)
        {
            return new EpollSelector(this);
        }
        return new UringSelector(this, bufferCount, bufferSize, sendBufferSize);
    }

    @Override
    public ServerSocketChannel openServerSocketChannel() throws IOException
    {
        return new EpollServerSocketChannel(this);
    }

    @Override
    public SocketChannel openSocketChannel() throws IOException
    {
        return new EpollSocketChannel(this);
    }

    @Override
    public DatagramChannel openDatagramChannel() throws IOException
    {
        return EpollSelectorProvider.datagramChannel(this);
    }

    @Override
    public DatagramChannel openDatagramChannel(final ProtocolFamily family) throws IOException
    {
        return EpollSelectorProvider.datagramChannel(this, family);
    }

    @Override
    public Pipe openPipe()
    {
        throw new UnsupportedOperationException("no pipes on Celer's io_uring transport");
    }
}
