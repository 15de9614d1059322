package io.celer.tcp;

import java.util.Locale;

import io.celer.counters.BatchedTotal;
import io.celer.counters.Counter;
import io.celer.counters.CounterScope;

/**
 * The TCP counters of one reactor, shared by its servers' and clients' connections; written on its thread, the
 * per-message ones batched (written when the reactor flushes its counters).
 */
final class TcpCounters
{
    final Counter open;
    final Counter opened;
    final Counter accepted;
    final Counter refusedAtLimit;
    final BatchedTotal bytesIn;
    final BatchedTotal bytesOut;
    final BatchedTotal messagesIn;
    final BatchedTotal messagesOut;
    final Counter writesRefused;
    final Counter lagging;
    final Counter readPauses;
    /** Handshakes that took more than one step (TLS), finished and failed. */
    final Counter handshakesDone;
    private final Counter handshakesFailed;
    private final Counter[] closed;
    /** By cause, made at a cause's first failure: most reactors never see more than one or two. */
    private final Counter[] handshakeFailures = new Counter[CloseReason.values().length + 1];
    private final CounterScope scope;

    TcpCounters(final CounterScope scope)
    {
        this.scope = scope;
        open = scope.gauge("tcp.connections.open", "");
        opened = scope.total("tcp.connections.opened", "");
        accepted = scope.total("tcp.connections.accepted", "");
        refusedAtLimit = scope.total("tcp.connections.refused", "cause=limit");
        bytesIn = scope.batchedTotal("tcp.bytes.in", "");
        bytesOut = scope.batchedTotal("tcp.bytes.out", "");
        messagesIn = scope.batchedTotal("tcp.messages.in", "");
        messagesOut = scope.batchedTotal("tcp.messages.out", "");
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
                scope.total("tcp.connections.closed", "reason=" + name(reason));
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

    /**
     * Counts a connection closed in its handshake, in all and by cause: {@code timeout} when its handshake time
     * ran out, else its close reason ({@code tls_error}: the engine refused the peer; {@code peer_closed},
     * {@code io_error}, ...).
     */
    void handshakeFailed(final CloseReason reason, final boolean timedOut)
    {
        handshakesFailed.increment();
        final int index = timedOut ? handshakeFailures.length - 1 : reason.ordinal();
        Counter byCause = handshakeFailures[index];
        if (byCause == null)
        {
            byCause = scope.total("tls.handshakes.failed", "cause=" + (timedOut ? "timeout" : name(reason)));
            handshakeFailures[index] = byCause;
        }
        byCause.increment();
    }

    private static String name(final CloseReason reason)
    {
        return reason.name().toLowerCase(Locale.ROOT);
    }
}
