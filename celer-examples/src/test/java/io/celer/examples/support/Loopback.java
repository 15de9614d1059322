package io.celer.examples.support;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import io.celer.reactor.Reactor;
import io.celer.tcp.Handler;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;
import io.celer.test.Reactors;

/**
 * The reactors of one test and servers on them on the loopback address; a JUnit extension
 * ({@code @RegisterExtension}) that stops every reactor after each test.
 */
public final class Loopback implements AfterEachCallback
{
    /** Where the test servers listen. */
    public static final String HOST = "127.0.0.1";

    private final Reactors reactors = new Reactors();

    /**
     * Settings that listen on the loopback address.
     *
     * @return new settings.
     */
    public static TcpConfig config()
    {
        return new TcpConfig().bindAddress(HOST);
    }

    /**
     * A started reactor, stopped after the test.
     *
     * @param name its thread's name.
     * @return the reactor.
     */
    public Reactor reactor(final String name)
    {
        return reactors.start(name);
    }

    /**
     * A server of one handler on a free loopback port, on a reactor of its own.
     *
     * @param name    its reactor thread's name.
     * @param handler the example.
     * @return the open server.
     */
    public TcpServer serve(final String name, final Handler handler)
    {
        return serve(name, config(), handler);
    }

    /**
     * A server of one handler on a free port, on a reactor of its own.
     *
     * @param name    its reactor thread's name.
     * @param config  its settings, from {@link #config()}.
     * @param handler the example.
     * @return the open server.
     */
    public TcpServer serve(final String name, final TcpConfig config, final Handler handler)
    {
        return new TcpServer(reactors.start(name), 0, config, handler).open();
    }

    @Override
    public void afterEach(final ExtensionContext context)
    {
        reactors.close();
    }
}
