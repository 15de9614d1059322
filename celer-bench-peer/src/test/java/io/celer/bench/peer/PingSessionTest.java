package io.celer.bench.peer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The client's session over UDP: overdue datagrams are sent again and counted, late echoes ignored, markers
 * repeated as they are.
 */
class PingSessionTest
{
    private static final long OVERDUE = PingSession.RESEND_AFTER_MILLIS * 1_000_000L + 1;

    @Test
    void aLostTimestampIsReplacedAndCountedOnlyWhileMeasuring()
    {
        final PingSession session = new PingSession(2, 3, ProgressFile.open(null));
        final long first = session.first();
        assertThat(session.resendDue(first + 1)).as("not overdue yet").isEqualTo(Markers.NOTHING);
        final long again = session.resendDue(first + OVERDUE);
        assertThat(again).as("a fresh warm-up timestamp").isNotEqualTo(first).isNotEqualTo(Markers.NOTHING);
        assertThat(session.onDatagramEcho(first)).as("the late echo of the first").isEqualTo(Markers.NOTHING);
        final long second = session.onDatagramEcho(again);
        assertThat(session.onDatagramEcho(second)).isEqualTo(Markers.MEASURE_START);
        assertThat(session.lost()).as("warm-up losses do not count").isZero();

        // The start marker's echo is lost: the marker goes again, as is.
        assertThat(session.resendDue(System.nanoTime() + OVERDUE)).isEqualTo(Markers.MEASURE_START);
        final long measured = session.onDatagramEcho(Markers.MEASURE_START);
        assertThat(session.onDatagramEcho(Markers.MEASURE_START)).as("the repeated marker's echo")
            .isEqualTo(Markers.NOTHING);
        final long replacement = session.resendDue(measured + OVERDUE);
        assertThat(replacement).isNotEqualTo(measured);
        assertThat(session.lost()).isEqualTo(1);

        long next = session.onDatagramEcho(replacement);
        next = session.onDatagramEcho(next);
        next = session.onDatagramEcho(next);
        assertThat(next).isEqualTo(Markers.MEASURE_END);
        assertThat(session.resendDue(System.nanoTime() + OVERDUE)).isEqualTo(Markers.MEASURE_END);
        assertThat(session.onDatagramEcho(Markers.MEASURE_END)).isEqualTo(Markers.DONE);
        assertThat(session.finished()).isTrue();
        assertThat(session.resendDue(System.nanoTime() + OVERDUE)).as("nothing after the end")
            .isEqualTo(Markers.NOTHING);
        assertThat(session.late()).isEqualTo(2);
        assertThat(session.statsLine()).contains("messages=3", "lost=1", "late=2");
    }
}
