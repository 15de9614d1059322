package io.celer.bench;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The field check the harness tests apply to every result file fails on a field renamed, dropped or added, and
 * lets a null stand for the fields under it.
 */
class ResultFieldsTest
{
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ObjectNode queues() throws Exception
    {
        return (ObjectNode)JSON.readTree("{\"benchmark\":\"queues\",\"started\":\"s\",\"duration_s\":1,\"jdk\":\"j\","
            + "\"os\":\"o\",\"cpus\":2,\"jvm_options\":[],\"warmup_iterations\":1,\"warmup_ms\":1,\"iterations\":1,"
            + "\"iteration_ms\":1,\"forks\":1,\"failures\":[],\"results\":[{\"kind\":\"k\",\"implementation\":\"i\","
            + "\"queue\":\"q\",\"unit\":\"u\",\"score\":1,\"error\":null,\"allocated_bytes_per_msg\":0,"
            + "\"messages_per_take\":null,\"iteration_scores\":[1],\"fork_scores\":[1],\"rounds_led\":1}]}");
    }

    @Test
    void theDocumentedFieldsPass() throws Exception
    {
        assertThatCode(() -> ResultFields.assertDocumented(queues(), "queues")).doesNotThrowAnyException();
    }

    @Test
    void aFieldAddedDroppedOrRenamedFails() throws Exception
    {
        final ObjectNode added = queues();
        added.put("extra", 1);
        assertThatThrownBy(() -> ResultFields.assertDocumented(added, "queues")).isInstanceOf(AssertionError.class);

        final ObjectNode dropped = queues();
        dropped.remove("forks");
        assertThatThrownBy(() -> ResultFields.assertDocumented(dropped, "queues")).isInstanceOf(AssertionError.class);

        final ObjectNode renamed = queues();
        final JsonNode entry = renamed.get("results").get(0);
        ((ObjectNode)entry).set("scores", ((ObjectNode)entry).remove("score"));
        assertThatThrownBy(() -> ResultFields.assertDocumented(renamed, "queues")).isInstanceOf(AssertionError.class);
    }

    @Test
    void aNullStandsForTheFieldsUnderIt() throws Exception
    {
        final ObjectNode report = (ObjectNode)JSON.readTree("{\"benchmark\":\"tick-to-trade\",\"started\":\"s\","
            + "\"duration_s\":1,\"jdk\":\"j\",\"os\":\"o\",\"cpus\":2,\"transport\":\"t\",\"interface\":\"lo\","
            + "\"warmup\":1,\"quotes\":1,\"spacing_us\":1,\"lost\":0,\"malformed\":0,\"orders\":1,\"wire\":\"w\","
            + "\"capture\":null,\"results\":[{\"measure\":\"m\",\"description\":\"d\",\"matched\":1,\"total\":1,"
            + "\"min_us\":1,\"p50_us\":1,\"p90_us\":1,\"p99_us\":1,\"p99_9_us\":1,\"max_us\":1,\"mean_us\":1}]}");
        assertThatCode(() -> ResultFields.assertDocumented(report, "tick-to-trade-wire")).doesNotThrowAnyException();
        report.remove("capture");
        assertThatThrownBy(() -> ResultFields.assertDocumented(report, "tick-to-trade-wire"))
            .isInstanceOf(AssertionError.class);
    }
}
