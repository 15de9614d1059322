package io.celer.bench.conns;

import java.lang.management.ManagementFactory;

import com.sun.management.UnixOperatingSystemMXBean;

/**
 * The open-file limit every process of a run lives under: the harness's, which its children inherit.
 */
final class OpenFiles
{
    /** Descriptors a server JVM holds besides its connections: jars, pipes, its selector, the listener. */
    static final int SERVER_SPARE = 500;
    /** Descriptors a client JVM holds besides its connections. */
    static final int CLIENT_SPARE = 1000;

    private OpenFiles()
    {
    }

    /**
     * The limit.
     *
     * @return descriptors a process may hold, or -1 where the JVM does not say.
     */
    static long limit()
    {
        return ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean unix
            ? unix.getMaxFileDescriptorCount() : -1;
    }
}
