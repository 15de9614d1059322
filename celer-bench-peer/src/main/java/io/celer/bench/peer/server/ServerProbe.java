package io.celer.bench.peer.server;

/**
 * Measures a running server between a mark and a report, for the harness's {@code stats} line.
 */
public interface ServerProbe
{
    /**
     * Marks the start of the measured phase, for instance after the harness's warm-up.
     */
    void begin();

    /**
     * Ends the measured phase.
     *
     * @return {@code stats side=server gc=... allocated=... messages=... jdk=... nanos=... scope=...}.
     */
    String statsLine();
}
