package io.celer.reactor;

import org.agrona.collections.ArrayUtil;

/**
 * The callback queues and muxes a reactor drains every cycle; the array is copied when one is added, which
 * happens before start or rarely, so a cycle's pass allocates nothing.
 */
final class CallbackSources
{
    private CallbackSource[] sources = new CallbackSource[0];

    void add(final CallbackSource source)
    {
        sources = ArrayUtil.add(sources, source);
    }

    /**
     * Drains each once.
     *
     * @return how many callbacks ran.
     */
    int drainAll()
    {
        final CallbackSource[] current = sources;
        int ran = 0;
        for (int i = 0; i < current.length; i++)
        {
            ran += current[i].drain();
        }
        return ran;
    }

    /**
     * Whether any has a callback waiting to run.
     *
     * @return true when a drain would run something.
     */
    boolean hasPublished()
    {
        for (final CallbackSource source : sources)
        {
            if (source.hasPublished())
            {
                return true;
            }
        }
        return false;
    }
}
