package io.celer.websocket;

import java.nio.ByteBuffer;

/**
 * A client that sends the next message each time the echo of the last comes back, counting round trips and
 * echoes that differ from what was sent: text and binary in turn, and, fragmented, also each split in two with a
 * ping between the fragments.
 */
public final class Pinger implements WebSocketHandler
{
    /** The text sent: two-, three- and four-byte UTF-8 among ASCII. */
    public static final String TEXT = "Gr\u00fc\u00dfe \u4e16\u754c \uD83D\uDE00 " + "some ascii ".repeat(10);
    private static final String TWICE = TEXT + TEXT;

    private final ByteBuffer binary = ByteBuffer.allocateDirect(700);
    private final ByteBuffer ping = ByteBuffer.allocateDirect(8);
    private final int kinds;
    private volatile long roundTrips;
    private volatile long mismatches;
    private long sent;

    /**
     * A pinger.
     *
     * @param fragmented whether fragmented messages are sent too.
     */
    public Pinger(final boolean fragmented)
    {
        this.kinds = fragmented ? 4 : 2;
    }

    /**
     * Echoes received.
     *
     * @return the count.
     */
    public long roundTrips()
    {
        return roundTrips;
    }

    /**
     * Echoes that differed from what was sent.
     *
     * @return the count.
     */
    public long mismatches()
    {
        return mismatches;
    }

    @Override
    public void opened(final WebSocket socket)
    {
        next(socket);
    }

    @Override
    public void text(final WebSocket socket, final Utf8Text message)
    {
        // Decoding to chars is part of what a text handler does.
        if (!message.contentEquals(TEXT) && !message.contentEquals(TWICE))
        {
            mismatches++;
        }
        roundTrip(socket);
    }

    @Override
    public void binary(final WebSocket socket, final ByteBuffer message)
    {
        if (message.remaining() != binary.capacity())
        {
            mismatches++;
        }
        roundTrip(socket);
    }

    private void roundTrip(final WebSocket socket)
    {
        roundTrips++;
        next(socket);
    }

    private void next(final WebSocket socket)
    {
        switch ((int)(sent++ % kinds))
        {
            case 0:
                socket.sendText(TEXT);
                break;
            case 1:
                socket.sendBinary(binary.clear());
                break;
            case 2:
                socket.sendTextFragment(TEXT, false);
                socket.ping(ping.clear());
                socket.sendTextFragment(TEXT, true);
                break;
            default:
                socket.sendFragment(binary.clear().limit(300), false, false);
                socket.sendFragment(binary.limit(700), false, true);
                break;
        }
    }
}
