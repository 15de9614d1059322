package io.celer.queue;

/**
 * What a consumer of several producers saw, as bits: bit {@code mark - 1} for each whole carrier of that
 * mark, 8 when a mark came twice, 16 when a carrier was half-written.
 */
final class Lanes
{
    private int seen;

    /**
     * Records one carrier.
     *
     * @param pair what was taken.
     */
    void add(final Pair pair)
    {
        if (pair.first != pair.second || pair.first < 1 || pair.first > 3)
        {
            seen |= 16;
            return;
        }
        final int bit = 1 << (pair.first - 1);
        seen |= (seen & bit) != 0 ? 8 : bit;
    }

    /**
     * The record so far.
     *
     * @return the bits.
     */
    int seen()
    {
        return seen;
    }
}
