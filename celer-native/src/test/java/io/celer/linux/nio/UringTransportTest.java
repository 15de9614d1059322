package io.celer.linux.nio;

import java.nio.channels.spi.SelectorProvider;

/**
 * The native transport's reactor, TCP and UDP tests on io_uring, and what only a completion transport has: its
 * receives cancelled and its buffers returned, a buffer ring running dry, staged bytes that a close waits for.
 */
class UringTransportTest extends NativeTransportTests
{
    @Override
    SelectorProvider provider()
    {
        return UringSelectorProvider.INSTANCE;
    }
}
