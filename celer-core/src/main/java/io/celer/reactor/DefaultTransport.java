package io.celer.reactor;

import java.nio.channels.spi.SelectorProvider;

/**
 * The selector provider reactors use unless told otherwise: the JDK's, or the one {@code -Dceler.transport} names
 * ({@code nio}, the default, or {@code epoll} from {@code celer-native}), found by name so that the core does not
 * depend on the native module, which needs JDK 22.
 */
final class DefaultTransport
{
    private static final String EPOLL = "io.celer.linux.nio.EpollSelectorProvider";

    static final SelectorProvider PROVIDER = resolve(System.getProperty("celer.transport", "nio"));

    private DefaultTransport()
    {
    }

    static SelectorProvider resolve(final String name)
    {
        switch (name)
        {
            case "nio":
                return SelectorProvider.provider();
            case "epoll":
                try
                {
                    return (SelectorProvider)Class.forName(EPOLL).getField("INSTANCE").get(null);
                }
                catch (final ReflectiveOperationException | LinkageError ex)
                {
                    throw new IllegalStateException("celer.transport=epoll needs celer-native on the class or " +
                        "module path and JDK 22 or later (" + ex + ")", ex);
                }
            default:
                throw new IllegalArgumentException("celer.transport must be nio or epoll: " + name);
        }
    }
}
