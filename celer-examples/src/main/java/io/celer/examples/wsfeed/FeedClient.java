package io.celer.examples.wsfeed;

import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketHandler;
import io.celer.websocket.outbound.Outbox;

/**
 * One client of the feed, as the application sees it: joins the feed when its session opens and leaves when it
 * closes, and keeps what it is owed (its next sequence number, counted from when it joined). Messages it sends
 * are ignored. Reactor thread only.
 */
final class FeedClient implements WebSocketHandler
{
    private final FeedSchedule schedule;
    /** The client's outbox, found once its session opened. */
    Outbox outbox;
    /** When it joined, {@link System#nanoTime()}. */
    long since;
    /** Its next sequence number; every number is used once, whether the message was sent, queued or refused. */
    long next;
    /** Where the schedule keeps it, -1 when not kept. */
    int slot = -1;

    FeedClient(final FeedSchedule schedule)
    {
        this.schedule = schedule;
    }

    @Override
    public void opened(final WebSocket socket)
    {
        schedule.add(this, socket.connection().id());
    }

    @Override
    public void closed(final WebSocket socket, final int code)
    {
        schedule.remove(this);
    }
}
