package io.celer.reactor.internal;

/**
 * The bytes of large per-message buffers (a WebSocket message gathered beyond its initial buffer, say) that the
 * connections of one reactor may hold at once: many peers each sending one large message would otherwise
 * together take more heap than the process has. A reservation beyond the bound is refused, and the protocol
 * refuses the message (WebSocket close 1009); what was reserved is given back when the buffer goes.
 *
 * <p>Used on the reactor thread only; the figures may be read from any thread.
 */
public final class LargeBufferBudget
{
    private final long max;
    private volatile long held;
    private volatile long refused;

    /**
     * A budget.
     *
     * @param max the bytes that may be held at once.
     */
    public LargeBufferBudget(final long max)
    {
        this.max = max;
    }

    /**
     * Reserves bytes for a buffer about to be made or grown.
     *
     * @param bytes how many more bytes the buffer takes.
     * @return false, counted, when they would go beyond the bound: the buffer must not be made.
     */
    public boolean reserve(final long bytes)
    {
        if (held + bytes > max)
        {
            refused++;
            return false;
        }
        held += bytes;
        return true;
    }

    /**
     * Gives back bytes of a buffer let go of.
     *
     * @param bytes what its reservations added up to.
     */
    public void release(final long bytes)
    {
        held -= bytes;
    }

    /**
     * The bound.
     *
     * @return bytes.
     */
    public long max()
    {
        return max;
    }

    /**
     * Bytes reserved now.
     *
     * @return bytes.
     */
    public long held()
    {
        return held;
    }

    /**
     * Reservations refused since the reactor started.
     *
     * @return how many.
     */
    public long refused()
    {
        return refused;
    }
}
