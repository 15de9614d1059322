package io.celer.websocket.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The outbound settings refuse bounds that make no sense, alone or together, and a fanout copies them.
 */
class OutboundConfigTest
{
    @Test
    void refusesBoundsOutOfRange()
    {
        assertThatThrownBy(() -> new OutboundConfig().maxQueuedMessages(0))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new OutboundConfig().maxQueuedBytes(0))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new OutboundConfig().maxQueuedBytes(OutboundConfig.MAX_QUEUED_BYTES_LIMIT + 1))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new OutboundConfig().lagThreshold(0))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new OutboundConfig().overflowPolicy(null))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Fanout(new OutboundConfig().maxQueuedBytes(100).maxMessageLength(101)))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new OutboundConfig().drainBudget(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new OutboundConfig().segmentSize(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new OutboundConfig().maxTotalQueueStorage(0))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Fanout(new OutboundConfig().maxMessageLength(1_000).segmentSize(1_004)))
            .as("a segment below a message and its header").isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Fanout(new OutboundConfig().segmentSize(4_096).maxTotalQueueStorage(4_095)))
            .as("a total below one segment").isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aFanoutKeepsTheSettingsItWasMadeWith()
    {
        final OutboundConfig config = new OutboundConfig().maxQueuedMessages(7).maxQueuedBytes(700)
            .maxMessageLength(100).lagThreshold(3).overflowPolicy(OverflowPolicy.CLOSE).drainBudget(512)
            .segmentSize(1_024).maxTotalQueueStorage(1 << 20);
        final Fanout fanout = new Fanout(config);
        config.maxQueuedMessages(9).overflowPolicy(OverflowPolicy.DROP_NEWEST);
        assertThat(fanout.config().maxQueuedMessages()).isEqualTo(7);
        assertThat(fanout.config().maxQueuedBytes()).isEqualTo(700);
        assertThat(fanout.config().maxMessageLength()).isEqualTo(100);
        assertThat(fanout.config().lagThreshold()).isEqualTo(3);
        assertThat(fanout.config().overflowPolicy()).isEqualTo(OverflowPolicy.CLOSE);
        assertThat(fanout.config().drainBudget()).isEqualTo(512);
        assertThat(fanout.config().segmentSize()).isEqualTo(1_024);
        assertThat(fanout.config().maxTotalQueueStorage()).isEqualTo(1 << 20);
    }
}
