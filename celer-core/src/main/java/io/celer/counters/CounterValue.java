package io.celer.counters;

/**
 * One counter as read at one moment.
 *
 * @param id        its record's id in the file.
 * @param type      what the value means.
 * @param scope     its owner's label (a reactor's name).
 * @param name      its dotted name.
 * @param tag       its {@code key=value}, or "".
 * @param value     the value (a histogram's count).
 * @param histogram a histogram's buckets, else null.
 */
public record CounterValue(int id, CounterType type, String scope, String name, String tag, long value,
    HistogramSnapshot histogram)
{
    /**
     * The label AeronStat would show: scope, name and tag.
     *
     * @return {@code scope: name [tag]}.
     */
    public String label()
    {
        return scope + ": " + name + (tag.isEmpty() ? "" : " " + tag);
    }
}
