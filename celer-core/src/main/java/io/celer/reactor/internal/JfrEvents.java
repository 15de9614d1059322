package io.celer.reactor.internal;

import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;

/**
 * Whether a JFR recording wants Celer's events, asked without loading their classes on a reactor thread: the
 * JVM's first load of a {@code jdk.jfr.Event} subclass takes a few hundred milliseconds and may pause every
 * thread, so the classes are loaded only once JFR itself starts ({@link #watch()}), by the thread that starts it;
 * until then no event is recorded. Each check is a volatile read, then a static flag's; it never allocates.
 */
public final class JfrEvents
{
    private static volatile boolean loaded;

    private JfrEvents()
    {
    }

    /** Instances never committed: their {@code isEnabled()} follows the recordings, as the class's does. */
    private static final class Probes
    {
        static final StallEvent STALL = new StallEvent();
        static final ConnectionOpenedEvent OPENED = new ConnectionOpenedEvent();
        static final ConnectionClosedEvent CLOSED = new ConnectionClosedEvent();

        static void load()
        {
            // Touching the class initialises it: the probes above are made, their classes loaded.
        }
    }

    /**
     * Loads the event classes as soon as JFR starts (at once if it has): call once, on a thread that may wait
     * some tens of milliseconds.
     */
    public static void watch()
    {
        FlightRecorder.addListener(new FlightRecorderListener()
        {
            @Override
            public void recorderInitialized(final FlightRecorder recorder)
            {
                Probes.load();
                loaded = true;
            }
        });
    }

    /**
     * Whether the event classes are loaded, so that events are recorded when enabled.
     *
     * @return true once JFR has started and the classes are loaded.
     */
    public static boolean ready()
    {
        return loaded;
    }

    /**
     * Whether to record {@code io.celer.Stall} now.
     *
     * @return true while a recording enables it.
     */
    public static boolean stall()
    {
        return loaded && Probes.STALL.isEnabled();
    }

    /**
     * Whether to record {@code io.celer.ConnectionOpened} now.
     *
     * @return true while a recording enables it.
     */
    public static boolean connectionOpened()
    {
        return loaded && Probes.OPENED.isEnabled();
    }

    /**
     * Whether to record {@code io.celer.ConnectionClosed} now.
     *
     * @return true while a recording enables it.
     */
    public static boolean connectionClosed()
    {
        return loaded && Probes.CLOSED.isEnabled();
    }
}
