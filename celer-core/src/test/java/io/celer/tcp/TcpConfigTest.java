package io.celer.tcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import io.celer.framing.LineFraming;

class TcpConfigTest
{
    @Test
    void aCopyKeepsEverySettingAndChangesIndependently()
    {
        final TcpConfig base = new TcpConfig().bindAddress("127.0.0.1").readBufferSize(1000).writeBufferSize(2000)
            .disconnectOnFullWriteBuffer(false).reconnectDelayMillis(7).framing(() -> new LineFraming(10));
        final TcpConfig copy = base.copy();
        assertThat(copy).usingRecursiveComparison().isEqualTo(base);
        copy.readBufferSize(3000).bindAddress("0.0.0.0");
        assertThat(base.readBufferSize()).isEqualTo(1000);
        assertThat(base.bindAddress()).isEqualTo("127.0.0.1");
    }

    @Test
    void refusesNonsense()
    {
        assertThatThrownBy(() -> new TcpConfig().readBufferSize(0)).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("readBufferSize must be positive: 0");
        assertThatThrownBy(() -> new TcpConfig().socketSendBufferSize(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TcpConfig().transport(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new TcpConfig().readBufferSize(10).framing(() -> new LineFraming(100)).newFraming())
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot hold the framing's longest frame");
    }
}
