package io.celer.websocket.internal;

import io.celer.counters.BatchedTotal;
import io.celer.counters.Counter;
import io.celer.counters.CounterScope;
import io.celer.websocket.CloseCode;

/**
 * The WebSocket session counters of one reactor; written on its thread.
 */
public final class WebSocketCounters
{
    /** The close codes counted each on their own; any other falls under "other". */
    private static final int[] CODES = {CloseCode.NORMAL, CloseCode.GOING_AWAY, CloseCode.PROTOCOL_ERROR,
        CloseCode.UNSUPPORTED_DATA, CloseCode.ABNORMAL, CloseCode.INVALID_PAYLOAD, CloseCode.POLICY_VIOLATION,
        CloseCode.MESSAGE_TOO_BIG, CloseCode.INTERNAL_ERROR};

    private final Counter[] closes = new Counter[CODES.length + 1];
    /** Whole messages received from peers and handed to handlers (after inflation, fragments joined). */
    final BatchedTotal messagesIn;
    /** Whole messages sent by handlers, a fragmented one once its last fragment is written. */
    final BatchedTotal messagesOut;

    private WebSocketCounters(final CounterScope scope)
    {
        messagesIn = scope.batchedTotal("ws.messages.in", "");
        messagesOut = scope.batchedTotal("ws.messages.out", "");
        for (int i = 0; i < CODES.length; i++)
        {
            closes[i] = scope.total("ws.closes", "code=" + CODES[i]);
        }
        closes[CODES.length] = scope.total("ws.closes", "code=other");
    }

    /**
     * The counters of a reactor's WebSocket sessions.
     *
     * @param scope the reactor's counters.
     * @return the one group of that reactor.
     */
    public static WebSocketCounters of(final CounterScope scope)
    {
        return scope.group(WebSocketCounters.class, WebSocketCounters::new);
    }

    /**
     * Counts a session's close, by the code it ended with.
     *
     * @param code the close code.
     */
    public void closed(final int code)
    {
        int i = 0;
        while (i < CODES.length && CODES[i] != code)
        {
            i++;
        }
        closes[i].increment();
    }
}
