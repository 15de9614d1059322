package io.celer.bench.harness;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * A run as written to JSON: the benchmark's name, the {@link Environment}, the benchmark's own settings (their
 * fields inline), one entry per peer, and what failed.
 *
 * @param benchmark   such as {@code tcp-latency} or {@code queues}.
 * @param environment when and where it ran.
 * @param settings    the benchmark's settings and run-wide outcomes, a record whose fields stand inline.
 * @param results     one entry per peer that completed, in the benchmark's own type.
 * @param failures    what went wrong with the others; null for a benchmark that has no such list (left out).
 */
public record Result(
    String benchmark,
    @JsonUnwrapped Environment environment,
    @JsonUnwrapped Object settings,
    List<?> results,
    @JsonInclude(JsonInclude.Include.NON_NULL) List<String> failures)
{
}
