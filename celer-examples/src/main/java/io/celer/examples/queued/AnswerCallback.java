package io.celer.examples.queued;

import io.celer.reactor.ReactorCallback;

/**
 * A worker's answer on its way back to the reactor: the connection to write to and the answer line.
 *
 * <p>Pre-allocated in the reactor's callback mux and reused, so handing an answer back makes no garbage.
 */
final class AnswerCallback implements ReactorCallback
{
    private final QueuedServer server;
    long connectionId;
    final byte[] line;
    int length;

    AnswerCallback(final QueuedServer server, final int maxAnswerLength)
    {
        this.server = server;
        this.line = new byte[maxAnswerLength];
    }

    @Override
    public void onCallback(final long nowMillis)
    {
        server.deliver(connectionId, line, length);
    }
}
