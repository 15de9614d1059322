package io.celer.reactor;

/**
 * A callback with two fields, written one after the other, that records what it carries when it runs.
 */
final class Mark implements ReactorCallback
{
    private final Marks marks;
    int first;
    int second;

    Mark(final Marks marks)
    {
        this.marks = marks;
    }

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

    @Override
    public void onCallback(final long nowMillis)
    {
        marks.add(first, second);
    }
}
