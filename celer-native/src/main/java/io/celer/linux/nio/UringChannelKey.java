package io.celer.linux.nio;

import java.io.IOException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

import io.celer.linux.uring.IoUring;

/**
 * A channel's registration with a {@link UringSelector}: a connection's state as any key's, through the channel's
 * {@link NativeSocket}, and what only channels need, apart so that an accepted connection's key
 * ({@link UringStream}), one per idle connection, does not carry it: a listener's descriptors accepted and not
 * yet taken, and the readiness a poll reported (a connect's, or any other channel's, a datagram channel's say).
 */
final class UringChannelKey extends UringSelectionKey
{
    final SelectableChannel channel;
    final NativeSocket socket;

    // A listener's accepted descriptors.
    final LongQueue accepted;
    boolean accepting;
    boolean acceptCancelling;
    int acceptError;

    // A poll's readiness: a connect's POLLOUT, or a polled channel's events.
    boolean polling;
    boolean pollCancelling;
    int pollEvents;
    int polled;

    UringChannelKey(final UringSelector selector, final SelectableChannel channel, final int slot,
        final int generation)
    {
        super(selector, kindOf(channel), slot, generation);
        this.channel = channel;
        this.socket = ((EpollChannel)channel).nativeSocket();
        this.accepted = kind == LISTENER ? new LongQueue(16) : null;
    }

    private static byte kindOf(final SelectableChannel channel)
    {
        return (byte)(((EpollChannel)channel).listens() ? LISTENER
            : channel instanceof EpollSocketChannel ? STREAM : POLLED);
    }

    @Override
    public SelectableChannel channel()
    {
        return channel;
    }

    @Override
    int validOps()
    {
        return channel.validOps();
    }

    @Override
    int fd()
    {
        return socket.fd;
    }

    @Override
    boolean connected()
    {
        return ((SocketChannel)channel).isConnected();
    }

    @Override
    boolean connectionPending()
    {
        return ((SocketChannel)channel).isConnectionPending();
    }

    @Override
    void takeSocket()
    {
        socket.uring = this;
    }

    @Override
    void leaveSocket()
    {
        if (socket.uring == this)
        {
            socket.uring = null;
        }
    }

    @Override
    void releaseSocket()
    {
        socket.release();
    }

    @Override
    void socketReleased()
    {
        if (channel instanceof EpollSocketChannel reused)
        {
            reused.socketReleased();
        }
    }

    @Override
    void wakeIn(final int slot, final int generation)
    {
        super.wakeIn(slot, generation);
        polling = false;
        pollCancelling = false;
        pollEvents = 0;
        polled = 0;
    }

    /**
     * What its state makes ready among its interest: a connection's reads, writes and connect, a listener's
     * accepts, or what a poll reported.
     */
    @Override
    int readiness()
    {
        final int interest = interest();
        switch (kind)
        {
            case STREAM:
                return super.readiness() | ((interest & SelectionKey.OP_CONNECT) != 0 && polled != 0
                    ? SelectionKey.OP_CONNECT : 0);
            case LISTENER:
                return (interest & SelectionKey.OP_ACCEPT) != 0 && (!accepted.isEmpty() || acceptError != 0)
                    ? SelectionKey.OP_ACCEPT : 0;
            default:
                // An error or a hang-up makes every interest ready, as the JDK does: the next call reports it.
                final boolean broken = (polled & (IoUring.POLLERR | IoUring.POLLHUP)) != 0;
                int ready = 0;
                if ((polled & IoUring.POLLIN) != 0 || broken)
                {
                    ready |= SelectionKey.OP_READ;
                }
                if ((polled & IoUring.POLLOUT) != 0 || broken)
                {
                    ready |= SelectionKey.OP_WRITE;
                }
                return ready & interest;
        }
    }

    /**
     * A listener's next accepted descriptor.
     *
     * @return it, or -1 when none is queued.
     * @throws IOException the error that ended the multishot accept (too many open files, say), once.
     */
    int accepted() throws IOException
    {
        if (!accepted.isEmpty())
        {
            return (int)accepted.poll();
        }
        final int error = acceptError;
        if (error != 0)
        {
            acceptError = 0;
            selector.pending(this);
            throw NativeSocket.failure("accept", error);
        }
        return -1;
    }
}
