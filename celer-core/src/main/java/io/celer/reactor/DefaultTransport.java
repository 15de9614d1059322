package io.celer.reactor;

import java.nio.channels.spi.SelectorProvider;

/**
 * The selector provider reactors use unless told otherwise: the JDK's, or the one {@code -Dceler.transport} names
 * ({@code nio}, the default, or {@code epoll} or {@code uring} from {@code celer-native}; {@code uring} falls back
 * to epoll, saying so once, where the kernel refuses io_uring), found by name so that the core does not depend on
 * the native module, which needs JDK 22.
 */
final class DefaultTransport
{
    private static final String EPOLL = "io.celer.linux.nio.EpollSelectorProvider";
    private static final String URING = "io.celer.linux.nio.UringSelectorProvider";

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
                return nativeProvider(name, EPOLL);
            case "uring":
                return nativeProvider(name, URING);
            default:
                throw new IllegalArgumentException("celer.transport must be nio, epoll or uring: " + name);
        }
    }

    /**
     * Whether a provider's channels do their I/O through the reactor's io_uring rings, which only the reactor
     * thread may drive (told by name, as above).
     */
    static boolean confinesChannelIo(final SelectorProvider provider)
    {
        return provider.getClass().getName().equals(URING);
    }

    private static SelectorProvider nativeProvider(final String name, final String className)
    {
        try
        {
            return (SelectorProvider)Class.forName(className).getField("INSTANCE").get(null);
        }
        catch (final ReflectiveOperationException | LinkageError ex)
        {
            throw new IllegalStateException("celer.transport=" + name + " needs celer-native on the class or " +
                "module path and JDK 22 or later (" + ex + ")", ex);
        }
    }
}
