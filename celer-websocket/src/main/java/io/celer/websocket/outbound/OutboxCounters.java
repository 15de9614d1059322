package io.celer.websocket.outbound;

import java.util.Locale;

import io.celer.counters.Counter;
import io.celer.counters.CounterScope;
import io.celer.counters.LatencyHistogram;

/**
 * The outbox counters of one reactor, shared by its clients' outboxes; written on its thread.
 */
final class OutboxCounters
{
    private final Counter[] dropped = new Counter[OverflowPolicy.values().length];
    /** Clients whose queue is at or past the lag threshold. */
    final Counter lagging;
    /** Messages written toward the socket, at once or from the queue. */
    final Counter written;
    /** How long messages that could not be written at once waited in their queue. */
    final LatencyHistogram queueTime;

    private OutboxCounters(final CounterScope scope)
    {
        for (final OverflowPolicy policy : OverflowPolicy.values())
        {
            dropped[policy.ordinal()] =
                scope.total("ws.outbox.dropped", "policy=" + policy.name().toLowerCase(Locale.ROOT));
        }
        lagging = scope.gauge("ws.outbox.lagging", "");
        written = scope.total("ws.outbox.written", "");
        queueTime = scope.histogram("ws.outbox.queue.time", "");
    }

    static OutboxCounters of(final CounterScope scope)
    {
        return scope.group(OutboxCounters.class, OutboxCounters::new);
    }

    void dropped(final OverflowPolicy policy, final long messages)
    {
        dropped[policy.ordinal()].add(messages);
    }
}
