package io.celer.queue;

/**
 * A carrier with two fields, written one after the other: a consumer that sees one but not the other saw a
 * half-written carrier.
 */
final class Pair
{
    int first;
    int second;

    /**
     * Fills both fields with the same mark.
     *
     * @param mark what to write.
     */
    void fill(final int mark)
    {
        first = mark;
        second = mark;
    }

    /**
     * What a consumer saw, as one number: {@code mark * 11} when whole, anything else when torn.
     *
     * @return {@code first * 10 + second}.
     */
    int seen()
    {
        return first * 10 + second;
    }
}
