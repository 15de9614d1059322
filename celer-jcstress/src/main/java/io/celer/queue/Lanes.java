package io.celer.queue;

/**
 * What a consumer of several producers saw, as bits: bit {@code mark - 1} for each whole carrier or callback
 * of that mark, 8 when a mark came twice, 16 when one was half-written. Touched only by the thread that
 * consumes, and by the arbiter after it.
 */
public final class Lanes
{
    private int seen;

    /**
     * Records one carrier.
     *
     * @param pair what was taken.
     */
    void add(final Pair pair)
    {
        add(pair.first, pair.second);
    }

    /**
     * Records one carrier or callback by its two fields.
     *
     * @param first  its first field.
     * @param second its second field.
     */
    public void add(final int first, final int second)
    {
        if (first != second || first < 1 || first > 3)
        {
            seen |= 16;
            return;
        }
        final int bit = 1 << (first - 1);
        seen |= (seen & bit) != 0 ? 8 : bit;
    }

    /**
     * Drains every lane of a mux once and takes what it saw.
     *
     * @param mux what to drain.
     * @return the bits of what that drain took.
     */
    int drain(final CarrierMux<Pair> mux)
    {
        mux.drain(this::add, 10);
        return take();
    }

    /**
     * The record so far, then starts afresh.
     *
     * @return the bits.
     */
    public int take()
    {
        final int taken = seen;
        seen = 0;
        return taken;
    }
}
