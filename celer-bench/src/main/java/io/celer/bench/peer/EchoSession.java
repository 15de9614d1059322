package io.celer.bench.peer;

/**
 * The server's side of the ping-pong: follows the client's phase markers and measures between them.
 */
public final class EchoSession
{
    private final IoThreadProbe probe = new IoThreadProbe("server");
    private long counted;
    private volatile String stats;

    /**
     * Takes one message's timestamp before it is echoed; call on the I/O thread.
     *
     * @param timestamp the first eight bytes of the message.
     */
    public void onMessage(final long timestamp)
    {
        if (timestamp == Markers.MEASURE_START)
        {
            probe.begin();
            counted = 0;
        }
        else if (timestamp == Markers.MEASURE_END)
        {
            probe.end(counted);
            stats = probe.statsLine();
        }
        else
        {
            // Counted in warm-up too, so measuring runs the very code that warmed up.
            counted++;
        }
    }

    /**
     * The stats line once the end marker arrived.
     *
     * @return the line, or null before.
     */
    public String stats()
    {
        return stats;
    }
}
