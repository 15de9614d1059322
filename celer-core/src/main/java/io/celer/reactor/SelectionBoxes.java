package io.celer.reactor;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The JDK's epoll selector looks each ready descriptor up in a {@code Map<Integer, ...>}, boxing it: past the
 * Integer cache (127 by default) every ready channel costs 16 bytes of garbage. {@code -XX:AutoBoxCacheMax=65536}
 * widens the cache; this says so once per process when it is missing.
 */
final class SelectionBoxes
{
    /** The highest file descriptor whose Integer box should be cached for selection to stay garbage-free. */
    private static final int BOXED_DESCRIPTORS = 65_535;
    private static final AtomicBoolean WARNED = new AtomicBoolean();

    private SelectionBoxes()
    {
    }

    /**
     * Logs a line, once, when the Integer cache does not cover the descriptors a busy process reaches.
     */
    static void warnIfUncached()
    {
        final boolean cached = Integer.valueOf(BOXED_DESCRIPTORS) == Integer.valueOf(BOXED_DESCRIPTORS);
        if (!cached && WARNED.compareAndSet(false, true))
        {
            System.getLogger(Reactor.class.getName()).log(System.Logger.Level.INFO,
                "selection allocates 16 bytes per ready channel once file descriptors pass 127; " +
                "run the JVM with -XX:AutoBoxCacheMax=65536 to keep it garbage-free");
        }
    }
}
