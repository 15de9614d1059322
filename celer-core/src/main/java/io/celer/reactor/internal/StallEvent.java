package io.celer.reactor.internal;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * JFR event {@code io.celer.Stall}: a reactor cycle that did work and ran past its stall threshold, and what
 * ran longest in it. Made only while a recording enables it.
 */
@Name("io.celer.Stall")
@Label("Reactor Stall")
@Category({"Celer", "Reactor"})
@Description("A reactor cycle longer than its stall threshold, and the handler, timer or callback that ran longest")
@StackTrace(false)
public final class StallEvent extends Event
{
    /**
     * An empty event, to fill and commit, or to ask {@code isEnabled()} of.
     */
    public StallEvent()
    {
    }

    @Label("Reactor")
    String reactor;

    @Label("Cycle")
    @Timespan(Timespan.NANOSECONDS)
    long cycleNanos;

    @Label("Culprit")
    @Description("The class of what ran longest in the cycle: a connection's handler, a timer, a callback")
    Class<?> culprit;

    @Label("Culprit Time")
    @Timespan(Timespan.NANOSECONDS)
    long culpritNanos;

    /**
     * Records a stall; call only when {@link JfrEvents#stall()}.
     *
     * @param reactor      the reactor's name.
     * @param cycleNanos   the cycle's length.
     * @param culprit      what ran longest, or null.
     * @param culpritNanos its time.
     */
    public static void commit(final String reactor, final long cycleNanos, final Class<?> culprit,
        final long culpritNanos)
    {
        final StallEvent event = new StallEvent();
        event.reactor = reactor;
        event.cycleNanos = cycleNanos;
        event.culprit = culprit;
        event.culpritNanos = culpritNanos;
        event.commit();
    }
}
