package io.celer.bench.queues;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * A row's figure is the median of its forks' means, so that one fork the scheduler placed badly does not
 * decide it.
 */
class ForkMedianTest
{
    @Test
    void anOddNumberOfForksTakesTheMiddleOne()
    {
        assertThat(QueuesRun.median(List.of(50.0, 5.0, 20.0))).isEqualTo(20.0);
        assertThat(QueuesRun.median(List.of(7.0))).isEqualTo(7.0);
    }

    @Test
    void anEvenNumberOfForksTakesTheMeanOfTheMiddleTwo()
    {
        assertThat(QueuesRun.median(List.of(40.0, 10.0, 1000.0, 20.0))).isEqualTo(30.0);
    }
}
