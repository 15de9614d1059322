package io.celer.reactor.internal;

/**
 * Lowers the calling thread's scheduling priority on Linux, with {@code renice} and the thread's kernel id: the
 * JDK's thread priorities do nothing there unless the JVM runs as root with {@code -XX:ThreadPriorityPolicy=1}.
 */
public final class ThreadNiceness
{
    private ThreadNiceness()
    {
    }

    /**
     * Sets the current thread's nice value; any process may raise its own threads' values, none lower them
     * without privileges.
     *
     * @param nice from 1 to 19, the lowest priority.
     * @return true when the kernel took it, false where renice is not available or refused it.
     */
    public static boolean setForCurrentThread(final int nice)
    {
        if (nice < 1 || nice > 19)
        {
            throw new IllegalArgumentException("a nice value from 1 to 19, not " + nice);
        }
        // --priority: the value itself; -n is an increment in POSIX and in later util-linux.
        return CurrentThreadCommand.run("renice", "--priority", Integer.toString(nice), "-p");
    }
}
