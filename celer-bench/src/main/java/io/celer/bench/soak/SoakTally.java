package io.celer.bench.soak;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What the soak's clients count, from their threads; read from any thread.
 */
final class SoakTally
{
    /** WebSocket connections that opened. */
    final AtomicLong opened = new AtomicLong();
    /** WebSocket connections the soak closed on purpose (churn, the end). */
    final AtomicLong closedByUs = new AtomicLong();
    /** WebSocket connections that closed without the soak asking, or never opened. */
    final AtomicLong failed = new AtomicLong();
    /** Slow clients the server closed (its send timeout): allowed. */
    final AtomicLong slowClosed = new AtomicLong();
    /** Feed messages the clients read. */
    final AtomicLong messages = new AtomicLong();
    /** Sequence numbers a reading client never saw: lost where nothing may be. */
    final AtomicLong fastLost = new AtomicLong();
    /** Sequence numbers that went back. */
    final AtomicLong outOfOrder = new AtomicLong();
    /** HTTP responses read, 200 each. */
    final AtomicLong httpResponses = new AtomicLong();
    /** HTTP exchanges that failed: another status, a broken connection, a timeout. */
    final AtomicLong httpErrors = new AtomicLong();
}
