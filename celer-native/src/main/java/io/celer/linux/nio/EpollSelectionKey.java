package io.celer.linux.nio;

import java.nio.channels.SelectableChannel;

/**
 * A channel's registration with an {@link EpollSelector}, as the JDK's {@code register} makes it: the channel's
 * socket is watched under the key's token.
 */
final class EpollSelectionKey extends EpollKey
{
    private final SelectableChannel channel;
    final NativeSocket socket;
    private final boolean listens;

    EpollSelectionKey(final EpollSelector selector, final SelectableChannel channel, final int generation)
    {
        this.selector = selector;
        this.channel = channel;
        final EpollChannel epollChannel = (EpollChannel)channel;
        this.socket = epollChannel.nativeSocket();
        this.listens = epollChannel.listens();
        this.token = token(generation, socket.fd);
    }

    EpollSelector selectorImpl()
    {
        return selector;
    }

    @Override
    int fd()
    {
        return socket.fd;
    }

    @Override
    boolean listens()
    {
        return listens;
    }

    @Override
    int validOps()
    {
        return channel.validOps();
    }

    @Override
    void entered()
    {
        socket.key = this;
    }

    @Override
    void forgotten()
    {
        if (socket.key == this)
        {
            socket.key = null;
        }
    }

    @Override
    public SelectableChannel channel()
    {
        return channel;
    }
}
