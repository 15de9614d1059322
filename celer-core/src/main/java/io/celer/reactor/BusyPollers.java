package io.celer.reactor;

import org.agrona.collections.ArrayUtil;
import io.celer.reactor.internal.Poller;
import io.celer.reactor.internal.Logs;

/**
 * The channel owners a reactor reads every cycle: busy polling. The array is copied on change, which happens
 * when a channel opens, pauses or closes, never per message, so a cycle's pass allocates nothing.
 */
final class BusyPollers
{
    private static final System.Logger LOG = System.getLogger(Reactor.class.getName());

    private final LongestDispatch dispatches;
    private Poller[] pollers = new Poller[0];

    BusyPollers(final LongestDispatch dispatches)
    {
        this.dispatches = dispatches;
    }

    void add(final Poller poller)
    {
        for (final Poller p : pollers)
        {
            if (p == poller)
            {
                return;
            }
        }
        pollers = ArrayUtil.add(pollers, poller);
    }

    void remove(final Poller poller)
    {
        pollers = ArrayUtil.remove(pollers, poller);
    }

    int count()
    {
        return pollers.length;
    }

    /**
     * Polls each once; one that throws is logged and polled no more.
     *
     * @return the work done.
     */
    int pollAll()
    {
        // A poller that closes during the pass changes the field, not this snapshot.
        final Poller[] polled = pollers;
        int work = 0;
        for (int i = 0; i < polled.length; i++)
        {
            work += poll(polled[i]);
        }
        return work;
    }

    private int poll(final Poller poller)
    {
        dispatches.start(poller);
        try
        {
            final int work = poller.poll();
            if (work == 0)
            {
                dispatches.idle();
            }
            return work;
        }
        catch (final Throwable t)
        {
            Logs.log(LOG, System.Logger.Level.ERROR, "unhandled failure in " + poller + ", no longer polling it", t);
            remove(poller);
            return 0;
        }
    }
}
