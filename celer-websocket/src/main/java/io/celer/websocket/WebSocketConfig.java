package io.celer.websocket;

/**
 * Settings of WebSocket sessions; fluent, read when a session is made.
 */
public final class WebSocketConfig
{
    private long maxFrameLength = 16L * 1024 * 1024;
    private int maxMessageLength = 16 * 1024 * 1024;
    private int initialMessageBufferSize = 64 * 1024;
    private int maxInflatePerCycle = DEFAULT_MAX_INFLATE_PER_CYCLE;
    private boolean streamFragments;
    private long closeTimeoutMillis = 5_000;
    private long pingIntervalMillis = 30_000;

    /** The default of {@link #maxInflatePerCycle(int)}: 16 KiB, one step of the inflater. */
    public static final int DEFAULT_MAX_INFLATE_PER_CYCLE = 16 * 1024;

    /**
     * Settings with every default, to be changed by the methods below.
     */
    public WebSocketConfig()
    {
    }

    /**
     * The largest frame payload accepted; larger fails the connection with 1009.
     *
     * @param bytes at least 125.
     * @return this.
     */
    public WebSocketConfig maxFrameLength(final long bytes)
    {
        if (bytes < 125)
        {
            throw new IllegalArgumentException("maxFrameLength below 125: " + bytes);
        }
        this.maxFrameLength = bytes;
        return this;
    }

    /**
     * The largest message accepted, reassembled (and inflated); larger fails the connection with 1009.
     *
     * @param bytes at least 1.
     * @return this.
     */
    public WebSocketConfig maxMessageLength(final int bytes)
    {
        if (bytes < 1)
        {
            throw new IllegalArgumentException("maxMessageLength below 1: " + bytes);
        }
        this.maxMessageLength = bytes;
        return this;
    }

    /**
     * The most bytes one connection inflates of a compressed message in one reactor cycle: past it the
     * connection's reads pause and its message goes on inflating in the next cycle, so that a small frame that
     * inflates to megabytes holds its reactor for a slice at a time while the reactor's other connections are
     * served between slices. Reads resume once the message is done. Inflation goes in 16 KiB steps, so a slice
     * may pass the bound by up to one step. 16 KiB by default: on loopback a slice of 16 KiB of zeros took
     * about 25 us against 100 us for 64 KiB (see the limits page).
     *
     * @param bytes at least 1.
     * @return this.
     */
    public WebSocketConfig maxInflatePerCycle(final int bytes)
    {
        if (bytes < 1)
        {
            throw new IllegalArgumentException("maxInflatePerCycle below 1: " + bytes);
        }
        this.maxInflatePerCycle = bytes;
        return this;
    }

    /**
     * The most bytes one connection inflates in one reactor cycle.
     *
     * @return bytes.
     */
    public int maxInflatePerCycle()
    {
        return maxInflatePerCycle;
    }

    /**
     * The reassembly buffer's size, made at a session's first data message (a session that receives none holds
     * none) and kept; a larger message grows it (doubling, up to {@link #maxMessageLength}) for as long as that
     * message takes, after which the large buffer is let go. Set it to the largest message that should allocate
     * nothing; 64 KiB by default.
     *
     * @param bytes at least 1.
     * @return this.
     */
    public WebSocketConfig initialMessageBufferSize(final int bytes)
    {
        if (bytes < 1)
        {
            throw new IllegalArgumentException("initialMessageBufferSize below 1: " + bytes);
        }
        this.initialMessageBufferSize = bytes;
        return this;
    }

    /**
     * Delivers data messages as they arrive, chunk by chunk, through {@link WebSocketHandler#fragment}, instead
     * of reassembling them; for messages too large to hold.
     *
     * @param on whether to stream.
     * @return this.
     */
    public WebSocketConfig streamFragments(final boolean on)
    {
        this.streamFragments = on;
        return this;
    }

    /**
     * How long to wait for the peer's side of the close handshake (its close frame, or on a client the server's
     * TCP close) before closing the connection anyway.
     *
     * @param millis milliseconds, at least 1.
     * @return this.
     */
    public WebSocketConfig closeTimeoutMillis(final long millis)
    {
        if (millis < 1)
        {
            throw new IllegalArgumentException("closeTimeoutMillis below 1: " + millis);
        }
        this.closeTimeoutMillis = millis;
        return this;
    }

    /**
     * Liveness: after this long without a byte from the peer the session sends a ping, and after as long again
     * without one it fails the connection (the handler hears 1006), so a peer that went away silently is not
     * held forever. A peer that only listens stays, answering pings as every WebSocket implementation does. 30 s
     * by default; 0 for never.
     *
     * @param millis milliseconds, or 0.
     * @return this.
     */
    public WebSocketConfig pingIntervalMillis(final long millis)
    {
        if (millis < 0)
        {
            throw new IllegalArgumentException("pingIntervalMillis below 0: " + millis);
        }
        this.pingIntervalMillis = millis;
        return this;
    }

    /**
     * The silence after which a ping goes out, and after which, again, the connection is failed.
     *
     * @return milliseconds, 0 for never.
     */
    public long pingIntervalMillis()
    {
        return pingIntervalMillis;
    }

    /**
     * The largest frame payload accepted.
     *
     * @return bytes.
     */
    public long maxFrameLength()
    {
        return maxFrameLength;
    }

    /**
     * The largest message accepted.
     *
     * @return bytes.
     */
    public int maxMessageLength()
    {
        return maxMessageLength;
    }

    /**
     * The reassembly buffer's first size.
     *
     * @return bytes.
     */
    public int initialMessageBufferSize()
    {
        return Math.min(initialMessageBufferSize, maxMessageLength);
    }

    /**
     * Whether messages are streamed rather than reassembled.
     *
     * @return true when streaming.
     */
    public boolean streamFragments()
    {
        return streamFragments;
    }

    /**
     * How long the close handshake may take.
     *
     * @return milliseconds.
     */
    public long closeTimeoutMillis()
    {
        return closeTimeoutMillis;
    }
}
