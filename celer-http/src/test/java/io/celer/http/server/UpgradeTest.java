package io.celer.http.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import io.celer.tcp.Connection;
import io.celer.tcp.Handler;

/**
 * A 101 answer hands the connection to another protocol, with the bytes the peer sent after its upgrade
 * request, whether the handler answers at once or later; a declined upgrade keeps speaking HTTP.
 */
class UpgradeTest
{
    @AutoClose
    private TestServer server;

    /** A line protocol that answers each line in upper case. */
    private static final class ShoutProtocol implements Handler
    {
        private final byte[] line = new byte[1024];

        @Override
        public void message(final Connection connection, final ByteBuffer data)
        {
            int start = data.position();
            for (int i = start; i < data.limit(); i++)
            {
                if (data.get(i) == '\n')
                {
                    final int length = i + 1 - start;
                    data.get(line, 0, length);
                    for (int k = 0; k < length; k++)
                    {
                        line[k] = (byte)Character.toUpperCase(line[k]);
                    }
                    connection.send(line, 0, length);
                    start = i + 1;
                }
            }
        }
    }

    private void serve(final long delayMillis)
    {
        server = new TestServer(new HttpServerConfig(), (req, res) ->
        {
            if (!req.headerEquals("Upgrade", "shout"))
            {
                res.body("still http");
                return;
            }
            final Runnable accept = () -> res.status(101).header("Upgrade", "shout").header("Connection", "Upgrade")
                .upgrade(new ShoutProtocol());
            if (delayMillis == 0)
            {
                accept.run();
            }
            else
            {
                res.connection().reactor().schedule(delayMillis, (id, now) -> accept.run());
            }
        });
    }

    private static final String UPGRADE = "GET /chat HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: shout\r\n\r\n";

    @Test
    void bytesAfterTheUpgradeRequestGoToTheNewProtocol() throws Exception
    {
        serve(0);
        try (RawClient client = new RawClient(server.port()))
        {
            client.send(UPGRADE + "hello\nGET / HTTP/1.1\n");
            final RawClient.Response switching = client.read();
            assertThat(switching.statusLine).isEqualTo("HTTP/1.1 101 Switching Protocols");
            assertThat(switching.header("Upgrade")).isEqualTo("shout");
            assertThat(switching.header("Content-Length")).isNull();
            client.send("again\n");
            assertThat(readText(client, 6 + 15 + 6)).isEqualTo("HELLO\nGET / HTTP/1.1\nAGAIN\n");
        }
    }

    @Test
    void aLateUpgradeKeepsTheBytesSentMeanwhile() throws Exception
    {
        serve(200);
        try (RawClient client = new RawClient(server.port()))
        {
            client.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n" + UPGRADE + "early\n");
            assertThat(client.read().bodyText()).isEqualTo("still http");
            assertThat(client.read().status).isEqualTo(101);
            assertThat(readText(client, 6)).isEqualTo("EARLY\n");
        }
    }

    @Test
    void aDeclinedUpgradeStaysHttp() throws Exception
    {
        server = new TestServer(new HttpServerConfig(), (req, res) -> res.connection().reactor()
            .schedule(50, (id, now) -> res.body("no upgrade for " + req.hashCode())));
        try (RawClient client = new RawClient(server.port()))
        {
            client.send(UPGRADE + "GET /next HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(client.read().bodyText()).startsWith("no upgrade");
            assertThat(client.read().bodyText()).startsWith("no upgrade");
        }
    }

    private static String readText(final RawClient client, final int length) throws Exception
    {
        final StringBuilder sb = new StringBuilder();
        while (sb.length() < length)
        {
            sb.append(new String(client.readBytes(length - sb.length()), StandardCharsets.ISO_8859_1));
        }
        return sb.toString();
    }
}
