package io.celer.tcp;

import java.util.Locale;

import io.celer.counters.Counter;
import io.celer.counters.CounterScope;

/**
 * The TCP counters of one reactor, shared by its servers' and clients' connections; written on its thread.
 */
final class TcpCounters
{
    final Counter open;
    final Counter opened;
    final Counter accepted;
    final Counter refusedAtLimit;
    final Counter bytesIn;
    final Counter bytesOut;
    final Counter messagesIn;
    final Counter messagesOut;
    final Counter writesRefused;
    final Counter lagging;
    final Counter readPauses;
    /** Handshakes that took more than one step (TLS), finished and failed. */
    final Counter handshakesDone;
    final Counter handshakesFailed;
    private final Counter[] closed;

    TcpCounters(final CounterScope scope)
    {
        open = scope.gauge("tcp.connections.open", "");
        opened = scope.total("tcp.connections.opened", "");
        accepted = scope.total("tcp.connections.accepted", "");
        refusedAtLimit = scope.total("tcp.connections.refused", "cause=limit");
        bytesIn = scope.total("tcp.bytes.in", "");
        bytesOut = scope.total("tcp.bytes.out", "");
        messagesIn = scope.total("tcp.messages.in", "");
        messagesOut = scope.total("tcp.messages.out", "");
        writesRefused = scope.total("tcp.writes.refused", "cause=buffer_full");
        lagging = scope.gauge("tcp.connections.lagging", "");
        readPauses = scope.total("tcp.read.pauses", "");
        handshakesDone = scope.total("tls.handshakes", "result=done");
        handshakesFailed = scope.total("tls.handshakes", "result=failed");
        final CloseReason[] reasons = CloseReason.values();
        closed = new Counter[reasons.length];
        for (final CloseReason reason : reasons)
        {
            closed[reason.ordinal()] =
                scope.total("tcp.connections.closed", "reason=" + reason.name().toLowerCase(Locale.ROOT));
        }
    }

    /** The counters of a reactor's TCP connections. */
    static TcpCounters of(final CounterScope scope)
    {
        return scope.group(TcpCounters.class, TcpCounters::new);
    }

    void closed(final CloseReason reason, final boolean wasOpen)
    {
        closed[reason.ordinal()].increment();
        if (wasOpen)
        {
            open.decrement();
        }
    }
}
