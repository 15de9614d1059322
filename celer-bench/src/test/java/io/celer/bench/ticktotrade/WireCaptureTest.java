package io.celer.bench.ticktotrade;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

class WireCaptureTest
{
    @TempDir
    Path dir;

    @Test
    void aCaptureThatCannotStartSaysWhy()
    {
        assumeThat(WireCapture.version()).as("tshark is not installed: ./celer test installs it").isNotNull();

        assertThatThrownBy(() -> WireCapture.start("celer-no-such-interface", "udp", dir.resolve("x.pcapng"),
            new InetSocketAddress("127.0.0.1", 0)))
            .isInstanceOf(IOException.class)
            .hasMessageContaining("tshark ended before capturing")
            .hasMessageContaining("celer-no-such-interface");
    }

    @Test
    void epochTimesKeepTheirNanoseconds()
    {
        // Through a double, 1795435972.255384228 would come back a few hundred nanoseconds off.
        assertThat(WireCapture.epochNanos("1795435972.255384228")).isEqualTo(1_795_435_972_255_384_228L);
        assertThat(WireCapture.epochNanos("1795435972.25")).isEqualTo(1_795_435_972_250_000_000L);
        assertThat(WireCapture.epochNanos("17")).isEqualTo(17_000_000_000L);
    }

    @Test
    void payloadsReadWithOrWithoutColons()
    {
        assertThat(WireCapture.hex("68690a")).containsExactly(0x68, 0x69, 0x0a);
        assertThat(WireCapture.hex("68:69:0a")).containsExactly(0x68, 0x69, 0x0a);
        assertThat(WireCapture.hex("")).isEmpty();
    }

    @Test
    void fieldLinesBecomeFramesAndOtherLinesAreSkipped()
    {
        final WireCapture.Frame udp = WireCapture.parse("1795435972.000000100\t4000\t\t0102\t");
        assertThat(udp.epochNanos()).isEqualTo(1_795_435_972_000_000_100L);
        assertThat(udp.udpDstPort()).isEqualTo(4000);
        assertThat(udp.tcpDstPort()).isEqualTo(-1);
        assertThat(udp.payload()).containsExactly(1, 2);

        final WireCapture.Frame ack = WireCapture.parse("1795435972.5\t\t5000\t\t");
        assertThat(ack.tcpDstPort()).isEqualTo(5000);
        assertThat(ack.payload()).isEmpty();

        assertThat(WireCapture.parse("Running as user \"root\" and group \"root\".")).isNull();
        assertThat(WireCapture.parse("")).isNull();
    }
}
