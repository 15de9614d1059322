package io.celer.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.net.Socket;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.examples.support.Loopback;
import io.celer.tcp.TcpServer;

class TimeServerTest
{
    @RegisterExtension
    final Loopback loopback = new Loopback();

    @Test
    void sendsTheTimeSince1900AndHangsUp() throws Exception
    {
        final TcpServer server = loopback.serve("time", new TimeServer());
        for (int client = 0; client < 3; client++)
        {
            try (Socket socket = new Socket("127.0.0.1", server.localAddress().getPort()))
            {
                socket.setSoTimeout(30_000);
                final DataInputStream in = new DataInputStream(socket.getInputStream());
                final long secondsSince1900 = in.readInt() & 0xFFFF_FFFFL;
                final long now = System.currentTimeMillis() / 1000 + 2_208_988_800L;
                assertThat(secondsSince1900).isBetween(now - 5, now + 1);
                assertThat(in.read()).as("end of stream").isEqualTo(-1);
            }
        }
    }
}
