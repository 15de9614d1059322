package io.celer.websocket.outbound;

/**
 * Hears clients start and stop lagging, on the reactor thread, so that the application can slow its producers or
 * send less. Every start is followed by exactly one end: when the queue drains, or when the client closes.
 */
public interface LagListener
{
    /**
     * The client's queue reached the lag threshold: sends to it are waiting for its socket.
     *
     * @param client the client.
     */
    default void lagStarted(final Outbox client)
    {
    }

    /**
     * The client's queue is empty again (drained into its write buffer, or discarded because it closed).
     *
     * @param client the client.
     */
    default void lagEnded(final Outbox client)
    {
    }
}
