package io.celer.bench.peer.celer;

import io.celer.bench.peer.ChildProcess;
import io.celer.reactor.ReactorConfig;

/**
 * The reactor settings every Celer peer process starts from: named for its side, on the CPU the harness gave it
 * ({@code --cpu}, none by default), on a daemon thread.
 */
final class ChildReactor
{
    private ChildReactor()
    {
    }

    /**
     * The settings, for the peer to add its own to.
     *
     * @param child the peer's process, for {@code --cpu}.
     * @param name  the reactor thread's name, such as {@code celer-client}.
     * @return new settings.
     */
    static ReactorConfig config(final ChildProcess child, final String name)
    {
        return new ReactorConfig().name(name).cpu(child.intArg("cpu", -1)).daemon(true);
    }
}
