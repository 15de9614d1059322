package io.celer.test;

import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorConfig;
import io.celer.reactor.ReactorGroup;

/**
 * Starts reactors for a test and stops them all after it: registered as a JUnit extension
 * ({@code @RegisterExtension final Reactors reactors = new Reactors();}) it stops them after each test by
 * itself; otherwise {@link #close()} does.
 */
public final class Reactors implements AutoCloseable, AfterEachCallback
{
    private final List<Reactor> started = new ArrayList<>();
    private final List<ReactorGroup> groups = new ArrayList<>();

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

    /**
     * A started group of daemon reactors named {@code name-0}, {@code name-1}, ... that back off when idle.
     *
     * @param name the group's name.
     * @param size how many reactors.
     * @return the group.
     */
    public ReactorGroup startGroup(final String name, final int size)
    {
        final ReactorGroup group = new ReactorGroup(size, i -> new ReactorConfig().name(name + "-" + i)
            .idleStrategy(new BackoffIdleStrategy(10, 10, 1_000, 100_000)).daemon(true));
        groups.add(group);
        return group.start();
    }

    /**
     * Stops the reactors the test started.
     *
     * @param context the test that ended.
     */
    @Override
    public void afterEach(final ExtensionContext context)
    {
        close();
    }

    @Override
    public void close()
    {
        for (final Reactor reactor : started)
        {
            reactor.stop();
        }
        started.clear();
        for (final ReactorGroup group : groups)
        {
            group.stop();
        }
        groups.clear();
    }
}
