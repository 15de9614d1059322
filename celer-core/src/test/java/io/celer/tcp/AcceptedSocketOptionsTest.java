package io.celer.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.nio.channels.NetworkChannel;
import java.nio.channels.ServerSocketChannel;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.celer.test.Reactors;
import io.celer.test.RecordingHandler;

/**
 * An accepted connection has the socket options its server was configured with, though the options it inherits
 * from the listener are not set again on each accept.
 */
class AcceptedSocketOptionsTest
{
    @RegisterExtension
    final Reactors reactors = new Reactors();

    @ParameterizedTest(name = "keep-alive {0}")
    @ValueSource(booleans = {false, true})
    void anAcceptedSocketHasTheConfiguredOptions(final boolean keepAlive) throws Exception
    {
        final int requested = 96 * 1024;
        final RecordingHandler handler = new RecordingHandler();
        final TcpServer server = new TcpServer(reactors.start("server"), 0, new TcpConfig().bindAddress("127.0.0.1")
            .socketReceiveBufferSize(requested).keepAlive(keepAlive).tcpNoDelay(true), handler).open();
        try (Socket socket = new Socket("127.0.0.1", server.port()))
        {
            handler.awaitEvent("opened");
            final Object[] options = new Object[3];
            handler.connection.reactor().call(() ->
            {
                final TcpConnection connection = (TcpConnection)handler.connection;
                try
                {
                    final NetworkChannel channel = (NetworkChannel)connection.channel;
                    options[0] = channel.getOption(StandardSocketOptions.SO_RCVBUF);
                    options[1] = channel.getOption(StandardSocketOptions.SO_KEEPALIVE);
                    options[2] = channel.getOption(StandardSocketOptions.TCP_NODELAY);
                }
                catch (final java.io.IOException ex)
                {
                    throw new java.io.UncheckedIOException(ex);
                }
            });
            assertThat(options[0]).as("receive buffer").isEqualTo(grantedReceiveBuffer(requested));
            assertThat(options[1]).as("keep-alive").isEqualTo(keepAlive);
            assertThat(options[2]).as("no delay").isEqualTo(true);
        }
    }

    /** What the kernel grants for a requested receive buffer (Linux doubles it), asked of a listener of its own. */
    private static int grantedReceiveBuffer(final int requested) throws Exception
    {
        try (ServerSocketChannel probe = ServerSocketChannel.open())
        {
            probe.setOption(StandardSocketOptions.SO_RCVBUF, requested);
            probe.bind(new InetSocketAddress("127.0.0.1", 0));
            return probe.getOption(StandardSocketOptions.SO_RCVBUF);
        }
    }
}
