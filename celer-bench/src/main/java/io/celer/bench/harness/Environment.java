package io.celer.bench.harness;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * When and where a run ran: the fields every result file has after its benchmark's name.
 *
 * @param started         when the run started, ISO-8601.
 * @param durationSeconds how long the whole run took.
 * @param jdk             the harness's JDK, which its Java children share.
 * @param os              the kernel.
 * @param cpus            CPUs this process may use.
 */
public record Environment(
    String started,
    @JsonProperty("duration_s") double durationSeconds,
    String jdk,
    String os,
    int cpus)
{
}
