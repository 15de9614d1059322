package io.celer.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.examples.support.Loopback;
import io.celer.tcp.TcpServer;
import io.celer.tcp.CloseReason;
import io.celer.test.Await;

class TimeClientTest
{
    @RegisterExtension
    final Loopback loopback = new Loopback();
    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(printed, true, StandardCharsets.US_ASCII);

    @Test
    void decodesTheTimeServersOneTimeAndIsDoneWhenItHangsUp() throws Exception
    {
        final TcpServer server = loopback.serve("time", new TimeServer());
        final TimeClient client = new TimeClient(loopback.reactor("client"), "127.0.0.1", server.localAddress().getPort(), out).open();

        assertThat(client.outcome().awaitDone(Duration.ofSeconds(30))).as("done").isTrue();
        assertThat(client.outcome().closeReason()).isEqualTo(CloseReason.PEER_CLOSED);
        assertThat(client.received()).isEqualTo(1);
        final Instant time = client.times().get(0);
        assertThat(time).isBetween(Instant.now().minusSeconds(5), Instant.now().plusSeconds(1));
        assertThat(printed.toString(StandardCharsets.US_ASCII)).isEqualTo(iso(time) + "\n");
    }

    @Test
    void takesAnyNumberOfTimesPerConnection() throws Exception
    {
        final TcpServer server = loopback.serve("time-beat", new TimeBeatServer(20));
        final TimeClient client = new TimeClient(loopback.reactor("client"), "127.0.0.1", server.localAddress().getPort(), out).open();

        Await.until(() -> "3 times, got " + client.received(), () -> client.received() >= 3, Duration.ofSeconds(30));
        client.close();
        assertThat(client.outcome().awaitDone(Duration.ofSeconds(30))).as("done").isTrue();
        assertThat(client.outcome().closeReason()).isEqualTo(CloseReason.LOCAL_CLOSE);

        final List<Instant> times = client.times();
        assertThat(times).hasSize(client.received());
        final StringBuilder expected = new StringBuilder();
        for (final Instant time : times)
        {
            assertThat(time).isBetween(Instant.now().minusSeconds(5), Instant.now().plusSeconds(1));
            expected.append(iso(time)).append('\n');
        }
        assertThat(printed.toString(StandardCharsets.US_ASCII)).isEqualTo(expected.toString());
    }

    @Test
    void isDoneWithTheCauseWhenItCannotConnect() throws Exception
    {
        final int port;
        try (ServerSocket closed = new ServerSocket(0))
        {
            port = closed.getLocalPort();
        }
        final TimeClient client = new TimeClient(loopback.reactor("time"), "127.0.0.1", port, out).open();

        assertThat(client.outcome().awaitDone(Duration.ofSeconds(30))).as("done").isTrue();
        assertThat(client.outcome().closeReason()).isEqualTo(CloseReason.CONNECT_FAILED);
        assertThat(client.outcome().failure()).isNotNull();
        assertThat(client.received()).isZero();
    }

    @Test
    void formatsLikeJavaTime()
    {
        final byte[] line = new byte[Rfc868.FORMATTED_LENGTH];
        final Random random = new Random(4);
        final long[] edges = {0, -1, 86_399, 86_400, 951_782_400L, 4_107_542_399L, -2_208_988_800L, 253_402_300_799L};
        for (final long seconds : edges)
        {
            assertFormats(seconds, line);
        }
        for (int i = 0; i < 10_000; i++)
        {
            assertFormats(Math.floorMod(random.nextLong(), 253_402_300_800L), line);
        }
    }

    @Test
    void encodesSecondsSince1900AsUnsigned()
    {
        final int wire = Rfc868.encode(Instant.parse("2030-01-01T00:00:00Z").toEpochMilli());
        assertThat(wire).isNegative();
        assertThat(Rfc868.toUnixSeconds(wire)).isEqualTo(Instant.parse("2030-01-01T00:00:00Z").getEpochSecond());
    }

    private static void assertFormats(final long seconds, final byte[] line)
    {
        final int length = Rfc868.formatUtc(seconds, line);
        assertThat(new String(line, 0, length, StandardCharsets.US_ASCII))
            .as("%d seconds", seconds).isEqualTo(iso(Instant.ofEpochSecond(seconds)));
    }

    private static String iso(final Instant time)
    {
        return DateTimeFormatter.ISO_INSTANT.format(time.truncatedTo(ChronoUnit.SECONDS));
    }
}
