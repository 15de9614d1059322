package io.celer.linux.nio;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

import org.junit.jupiter.api.Test;

import io.celer.reactor.ReusableChannel;

/**
 * An epoll selector keeps a closed accepted channel for its listener's next accept, which gets the same object;
 * a selector with no listener (a reactor that serves connections another one accepted) keeps none, and the
 * channel closes as any other.
 */
class SpareChannelsTest
{
    @Test
    void aChannelIsKeptForTheNextAcceptOnlyWhereThereIsAListener() throws Exception
    {
        try (EpollSelector accepting = (EpollSelector)EpollSelectorProvider.INSTANCE.openSelector();
            EpollSelector serving = (EpollSelector)EpollSelectorProvider.INSTANCE.openSelector();
            ServerSocketChannel listener = EpollSelectorProvider.INSTANCE.openServerSocketChannel())
        {
            listener.bind(new InetSocketAddress("127.0.0.1", 0));
            listener.configureBlocking(false);
            listener.register(accepting, SelectionKey.OP_ACCEPT);
            final int port = ((InetSocketAddress)listener.getLocalAddress()).getPort();

            final SocketChannel first;
            try (Socket peer = new Socket("127.0.0.1", port))
            {
                first = acceptOne(listener);
                first.configureBlocking(false);
                first.register(accepting, SelectionKey.OP_READ);
                ((ReusableChannel)first).closeSocket();
                ((ReusableChannel)first).recycle();
                assertThat(accepting.spares()).as("kept by the selector with the listener").isOne();
            }
            try (Socket peer = new Socket("127.0.0.1", port))
            {
                final SocketChannel second = acceptOne(listener);
                assertThat(second).as("the next accept's channel").isSameAs(first);
                assertThat(accepting.spares()).isZero();
                assertThat(second.getRemoteAddress()).isEqualTo(peer.getLocalSocketAddress());
                // Handed to a reactor that accepts nothing, as AcceptSpread.LEAST_LOADED does.
                second.configureBlocking(false);
                second.register(serving, SelectionKey.OP_READ);
                ((ReusableChannel)second).closeSocket();
                ((ReusableChannel)second).recycle();
                assertThat(serving.spares()).as("kept by a selector with no listener").isZero();
                assertThat(second.isOpen()).as("closed as any channel").isFalse();
            }
        }
    }

    /** Accepts the one connection waiting, polling: bounded, as a connect on loopback is queued at once. */
    private static SocketChannel acceptOne(final ServerSocketChannel listener) throws IOException
    {
        for (int i = 0; i < 1_000_000; i++)
        {
            final SocketChannel accepted = listener.accept();
            if (accepted != null)
            {
                return accepted;
            }
            Thread.onSpinWait();
        }
        throw new AssertionError("no connection to accept");
    }
}
