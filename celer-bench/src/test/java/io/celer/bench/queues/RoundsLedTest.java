package io.celer.bench.queues;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Each entry counts the rounds in which its fork was the best of its kind: higher for rates, lower for round trips.
 */
class RoundsLedTest
{
    @Test
    void aRateLeadsTheRoundsWhereItIsHighest()
    {
        final List<QueuesReport.Entry> counted = QueuesReport.withRoundsLed(List.of(
            entry("one-to-one", "celer", "msgs/s", 10.0, 50.0, 30.0),
            entry("one-to-one", "jctools", "msgs/s", 20.0, 40.0, 10.0),
            entry("one-to-one", "agrona", "msgs/s", 5.0, 45.0, 35.0)));
        assertThat(counted).extracting(QueuesReport.Entry::roundsLed).containsExactly(1, 1, 1);
    }

    @Test
    void aRoundTripLeadsTheRoundsWhereItIsLowest()
    {
        final List<QueuesReport.Entry> counted = QueuesReport.withRoundsLed(List.of(
            entry("round-trip", "celer", "ns", 150.0, 900.0),
            entry("round-trip", "disruptor", "ns", 180.0, 800.0),
            entry("many-to-one", "celer", "msgs/s", 60.0, 70.0)));
        assertThat(counted).extracting(QueuesReport.Entry::roundsLed).containsExactly(1, 1, null);
    }

    @Test
    void aTieLeadsNoRound()
    {
        final List<QueuesReport.Entry> counted = QueuesReport.withRoundsLed(List.of(
            entry("round-trip", "celer", "ns", 150.0),
            entry("round-trip", "agrona", "ns", 150.0)));
        assertThat(counted).extracting(QueuesReport.Entry::roundsLed).containsExactly(0, 0);
    }

    private static QueuesReport.Entry entry(final String kind, final String implementation, final String unit,
        final Double... forks)
    {
        return new QueuesReport.Entry(kind, implementation, implementation, unit, forks[0], null, 0.0, null,
            List.of(forks), List.of(forks), null);
    }
}
