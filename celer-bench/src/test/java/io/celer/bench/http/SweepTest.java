package io.celer.bench.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.celer.bench.harness.Peer;
import io.celer.bench.harness.Table;

/**
 * The median per setting and every round's rate beside it, in the results and in the report's table.
 */
class SweepTest
{
    private record Rate(int setting, double rate) implements Sweep.Point
    {
        @Override
        public String serverJdk()
        {
            return "17";
        }

        @Override
        public Double serverCpuPerRequest()
        {
            return null;
        }
    }

    private static final Peer SERVER = HttpPeer.CELER;

    /** Three rounds at two settings, the middle rate of each setting in a different round. */
    private static final List<List<Rate>> ROUNDS = List.of(
        List.of(new Rate(1, 300), new Rate(10, 2_000)),
        List.of(new Rate(1, 100), new Rate(10, 3_000)),
        List.of(new Rate(1, 200), new Rate(10, 1_000)));

    @Test
    void entryTakesTheMedianRoundPerSettingAndKeepsEveryRoundsRateInOrder()
    {
        final Sweep.Entry<Rate> entry = Sweep.entry(SERVER, ROUNDS);

        assertThat(entry.points()).containsExactly(new Rate(1, 200), new Rate(10, 2_000));
        assertThat(entry.roundRates())
            .containsExactly(List.of(300.0, 100.0, 200.0), List.of(2_000.0, 3_000.0, 1_000.0));
    }

    @Test
    void roundRatesShowEachServersRoundsPerSetting()
    {
        final Table table = Sweep.roundRates("connections", List.of(1, 10), List.of(Sweep.entry(SERVER, ROUNDS)));

        assertThat(table.header()).containsExactly("connections", "celer");
        assertThat(table.rows())
            .containsExactly(List.of("1", "300 / 100 / 200"), List.of("10", "2,000 / 3,000 / 1,000"));
    }

    @Test
    void resultsCarryTheRoundRates()
    {
        final JsonNode json = new ObjectMapper().valueToTree(Sweep.entry(SERVER, ROUNDS));

        assertThat(json.get("round_rates").get(1).get(2).asDouble()).isEqualTo(1_000.0);
        assertThat(json.get("points")).hasSize(2);
    }
}
