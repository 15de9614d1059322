package io.celer.linux.nio;

import java.nio.channels.spi.SelectorProvider;

/**
 * The native transport's reactor, TCP and UDP tests on epoll.
 */
class EpollTransportTest extends NativeTransportTests
{
    @Override
    SelectorProvider provider()
    {
        return EpollSelectorProvider.INSTANCE;
    }

    @Override
    boolean confinesChannelIo()
    {
        return false;
    }
}
