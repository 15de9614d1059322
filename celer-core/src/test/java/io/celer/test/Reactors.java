package io.celer.test;

import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorConfig;

/**
 * Starts reactors for a test and stops them all after it.
 */
public final class Reactors implements AutoCloseable
{
    private final List<Reactor> started = new ArrayList<>();

    /**
     * A started reactor that backs off when idle, so tests share two cores politely.
     *
     * @param name thread name.
     * @return the reactor.
     */
    public Reactor start(final String name)
    {
        return start(name, new BackoffIdleStrategy(10, 10, 1_000, 100_000));
    }

    /**
     * A started reactor.
     *
     * @param name thread name.
     * @param idle its idle strategy.
     * @return the reactor.
     */
    public Reactor start(final String name, final IdleStrategy idle)
    {
        return start(new ReactorConfig().name(name).idleStrategy(idle));
    }

    /**
     * A started daemon reactor.
     *
     * @param config its settings.
     * @return the reactor.
     */
    public Reactor start(final ReactorConfig config)
    {
        final Reactor reactor = new Reactor(config.daemon(true));
        started.add(reactor);
        return reactor.start();
    }

    @Override
    public void close()
    {
        for (final Reactor reactor : started)
        {
            reactor.stop();
        }
        started.clear();
    }
}
