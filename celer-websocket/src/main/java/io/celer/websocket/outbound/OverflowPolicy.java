package io.celer.websocket.outbound;

/**
 * What a client's outgoing queue does with a message when it is full (its message or byte bound reached).
 */
public enum OverflowPolicy
{
    /** Drops the oldest queued whole messages until the new one fits: a slow client sees the latest data. */
    DROP_OLDEST,
    /** Refuses the new message: a slow client sees the oldest data, with the gap at the end. */
    DROP_NEWEST,
    /** Closes the client with 1008 (Policy Violation), discarding what it had queued. */
    CLOSE
}
