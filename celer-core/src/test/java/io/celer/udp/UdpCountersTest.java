package io.celer.udp;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.counters.Counters;
import io.celer.counters.CountersReader;
import io.celer.reactor.Reactor;
import io.celer.test.Await;
import io.celer.test.Reactors;

/**
 * An echoing endpoint's UDP counters after scripted datagrams, read as {@code ./celer stat} reads them: each
 * datagram and byte in and out, and the oversized one dropped.
 */
class UdpCountersTest
{
    private static final int DATAGRAMS = 9;
    private static final int MAX = 256;

    @RegisterExtension
    final Reactors reactors = new Reactors();

    @Test
    void countsDatagramsAndBytesEachWayAndTheOversizedDropped() throws Exception
    {
        final Reactor reactor = reactors.start("udp-counted");
        final UdpEndpoint endpoint = new UdpEndpoint(reactor, 0,
            new UdpConfig().bindAddress("127.0.0.1").maxDatagramSize(MAX), new UdpEndpointTest.Recorder(true)).open();
        final CountersReader reader = Counters.process().reader();
        long bytes = 0;
        try (DatagramSocket client = new DatagramSocket(0, InetAddress.getLoopbackAddress()))
        {
            client.setSoTimeout(10_000);
            final InetSocketAddress server = new InetSocketAddress("127.0.0.1", endpoint.port());
            final byte[] echo = new byte[MAX * 2];
            for (int i = 0; i < DATAGRAMS; i++)
            {
                final byte[] payload = "d".repeat(1 + i * 20).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                client.send(new DatagramPacket(payload, payload.length, server));
                final DatagramPacket back = new DatagramPacket(echo, echo.length);
                client.receive(back);
                assertThat(back.getLength()).isEqualTo(payload.length);
                bytes += payload.length;
            }
            final byte[] tooLarge = new byte[MAX + 1];
            client.send(new DatagramPacket(tooLarge, tooLarge.length, server));
            client.send(new DatagramPacket(tooLarge, tooLarge.length, server));
        }
        Await.until("two oversized dropped", () -> sum(reader, "udp.datagrams.dropped", "cause=oversized") == 2);
        // Batched totals: written when the reactor next flushes its counters.
        final long total = bytes;
        Await.until("datagrams in", () -> sum(reader, "udp.datagrams.in", "") == DATAGRAMS);
        Await.until("bytes in", () -> sum(reader, "udp.bytes.in", "") == total);
        Await.until("datagrams out", () -> sum(reader, "udp.datagrams.out", "") == DATAGRAMS);
        Await.until("bytes out", () -> sum(reader, "udp.bytes.out", "") == total);
        assertThat(sum(reader, "udp.datagrams.dropped", "cause=send_buffer_full")).isZero();
        reactor.execute(endpoint::close);
    }

    private static long sum(final CountersReader reader, final String name, final String tag)
    {
        return reader.sum("udp-counted", name, tag);
    }
}
