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

    /**
     * What a poll saw.
     *
     * @param pair the polled carrier, or null.
     * @return its {@link #seen()}, or -1 for nothing.
     */
    static int seenOrNone(final Pair pair)
    {
        return pair == null ? -1 : pair.seen();
    }

    /**
     * Fills one carrier and publishes it: a producer's whole step, without the varargs array of
     * {@link #publish(CarrierQueue, int...)}.
     *
     * @param queue where.
     * @param mark  what.
     */
    static void publish(final CarrierQueue<Pair> queue, final int mark)
    {
        queue.claim().fill(mark);
        queue.publish();
    }

    /**
     * Fills one carrier on the calling producer's lane of a mux and publishes it.
     *
     * @param mux  where.
     * @param mark what.
     */
    static void publish(final CarrierMux<Pair> mux, final int mark)
    {
        mux.claim().fill(mark);
        mux.publish();
    }

    /**
     * Fills a carrier per mark and publishes them as one batch; for a test's starting state.
     *
     * @param queue where.
     * @param marks what, in order.
     */
    static void publish(final CarrierQueue<Pair> queue, final int... marks)
    {
        for (final int mark : marks)
        {
            queue.claim().fill(mark);
        }
        queue.publish();
    }

    /**
     * Publishes a carrier per mark as one batch and drains them unseen: moves the ring on, so that a test's
     * carriers land on slots already used and released.
     *
     * @param queue where.
     * @param marks what, in order.
     */
    static void advance(final CarrierQueue<Pair> queue, final int... marks)
    {
        publish(queue, marks);
        queue.drain(pair -> { }, marks.length);
    }

    /**
     * Claims and fills carriers, marked {@code first} to {@code last}, for as long as the queue hands free ones
     * back; publishes nothing.
     *
     * @param queue where.
     * @param first the first carrier's mark.
     * @param last  the last one's.
     * @return how many it filled.
     */
    static int refill(final CarrierQueue<Pair> queue, final int first, final int last)
    {
        int refilled = 0;
        for (int mark = first; mark <= last; mark++)
        {
            final Pair pair = queue.claim();
            if (pair == null)
            {
                break;
            }
            pair.fill(mark);
            refilled++;
        }
        return refilled;
    }

    /**
     * Drains a queue once and lists the marks it took, in order, as digits: 7 for a torn carrier, 0 for none.
     *
     * @param queue what to drain.
     * @return the digits.
     */
    static int drainMarks(final CarrierQueue<Pair> queue)
    {
        final int[] seen = {0};
        queue.drain(pair -> seen[0] = seen[0] * 10 + (pair.seen() == pair.first * 11 ? pair.first : 7), 10);
        return seen[0];
    }
}
