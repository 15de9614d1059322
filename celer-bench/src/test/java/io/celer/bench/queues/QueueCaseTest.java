package io.celer.bench.queues;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * {@code --kinds} and {@code --impls} pick benchmarks in table order, and an unknown name is refused with the
 * names there are.
 */
class QueueCaseTest
{
    @Test
    void selectsTheCasesOfTheKindsAndImplementationsInTableOrder()
    {
        assertThat(QueueCase.select(" Many-To-One,one-to-one ", "disruptor,,celer")).containsExactly(
            QueueCase.ONE_TO_ONE_CELER, QueueCase.ONE_TO_ONE_DISRUPTOR, QueueCase.MANY_TO_ONE_CELER,
            QueueCase.MANY_TO_ONE_DISRUPTOR);
        assertThat(QueueCase.ONE_TO_ONE_AGRONA.benchmark())
            .isEqualTo("io.celer.bench.queues.OneToOneThroughput.agrona");
        assertThat(QueueCase.REACTOR_CALLBACK_ROUND_TRIP_CELER.benchmark())
            .isEqualTo("io.celer.bench.queues.ReactorRoundTrip.callbackQueue");
    }

    @Test
    void refusesAnUnknownKindListingTheKinds()
    {
        assertThatThrownBy(() -> QueueCase.select("one-to-one,sideways", "celer"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("unknown kind: sideways (one-to-one, many-to-one, round-trip, reactor-round-trip, "
                + "reactor-callback-round-trip)");
    }

    @Test
    void refusesAnUnknownImplementationListingTheImplementations()
    {
        assertThatThrownBy(() -> QueueCase.select("one-to-one", "celer,chronicle"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("unknown implementation: chronicle (celer, agrona, jctools, disruptor)");
    }

    @Test
    void refusesASelectionThatLeavesNothing()
    {
        assertThatThrownBy(() -> QueueCase.select("reactor-round-trip", "agrona"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("no benchmark selected");
    }
}
