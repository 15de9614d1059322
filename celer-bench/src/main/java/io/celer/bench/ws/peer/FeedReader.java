package io.celer.bench.ws.peer;

import java.nio.ByteBuffer;

import io.celer.reactor.internal.CycleTask;
import io.celer.reactor.Reactor;
import io.celer.reactor.TimerCallback;
import io.celer.tcp.Connection;
import io.celer.websocket.Utf8Text;
import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketHandler;

/**
 * One client of the feed in the load client: checks that its sequence numbers only go up, counts the ones it
 * missed, and, when fast, records each message's latency; when slow, stops reading at the end of the reactor cycle
 * in which it read, for a pause, then reads what is there. Allocation-free per message: the numbers are parsed
 * from the text in place.
 */
final class FeedReader implements WebSocketHandler, CycleTask, TimerCallback
{
    private final Reactor reactor;
    private final FeedTally tally;
    private final boolean slow;
    private final long pauseMillis;
    private Connection connection;
    private long next;
    private boolean pausing;

    /**
     * A reader.
     *
     * @param reactor     the client reactor.
     * @param tally       the counts it adds to.
     * @param slow        whether it reads with a pause.
     * @param pauseMillis the pause after each read, when slow.
     */
    FeedReader(final Reactor reactor, final FeedTally tally, final boolean slow, final long pauseMillis)
    {
        this.reactor = reactor;
        this.tally = tally;
        this.slow = slow;
        this.pauseMillis = pauseMillis;
    }

    @Override
    public void opened(final WebSocket socket)
    {
        connection = socket.connection();
        tally.opened++;
    }

    @Override
    public void text(final WebSocket socket, final Utf8Text message)
    {
        // The bytes, not the chars: decoding the text to chars would cost a pass over the padding too.
        final ByteBuffer bytes = message.bytes();
        final int start = bytes.position();
        final int space = indexOfSpace(bytes, start);
        final long sequence = number(bytes, start, space);
        if (sequence > next)
        {
            if (slow)
            {
                tally.slowLost += sequence - next;
            }
            else
            {
                tally.fastLost += sequence - next;
            }
        }
        else if (sequence < next)
        {
            tally.outOfOrder++;
        }
        next = sequence + 1;
        if (!slow)
        {
            final int second = indexOfSpace(bytes, space + 1);
            tally.fast(number(bytes, space + 1, second), number(bytes, second + 1, indexOfSpace(bytes, second + 1)));
            return;
        }
        tally.slowReceived++;
        if (!pausing)
        {
            pausing = true;
            reactor.internals().runAtEndOfCycle(this);
        }
    }

    @Override
    public void endOfCycle()
    {
        if (connection.isOpen())
        {
            connection.pauseReads();
            reactor.schedule(pauseMillis, this);
        }
    }

    @Override
    public void onTimer(final long timerId, final long nowMillis)
    {
        pausing = false;
        connection.resumeReads();
    }

    @Override
    public void closed(final WebSocket socket, final int code)
    {
        tally.closed++;
        if (!slow)
        {
            tally.fastClosed++;
        }
    }

    private static int indexOfSpace(final ByteBuffer text, final int from)
    {
        for (int i = from; i < text.limit(); i++)
        {
            if (text.get(i) == ' ')
            {
                return i;
            }
        }
        return text.limit();
    }

    /** Decimal digits, without a String: the reactor parses every message. */
    private static long number(final ByteBuffer text, final int from, final int to)
    {
        long value = 0;
        for (int i = from; i < to; i++)
        {
            value = value * 10 + text.get(i) - '0';
        }
        return value;
    }
}
