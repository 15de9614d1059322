package io.celer.bench.peer.server;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

import io.celer.reactor.ReactorConfig;

/**
 * What a Celer peer's reactor does when a cycle finds no work, by the name its {@code --idle} option takes.
 */
public enum ReactorIdle
{
    /** Waits in the selector until a channel is ready, a timer is due or another thread wakes it. */
    SELECT("select"),
    /** Spins without pause. */
    SPIN("spin"),
    /** Spins and yields the CPU on every idle cycle. */
    YIELD("yield"),
    /** Spins, yields, then parks for up to 100 us. */
    BACKOFF("backoff");

    private final String id;

    ReactorIdle(final String id)
    {
        this.id = id;
    }

    /**
     * The mode an {@code --idle} value names.
     *
     * @param name such as {@code select}.
     * @return the mode.
     * @throws IllegalArgumentException on an unknown name.
     */
    public static ReactorIdle of(final String name)
    {
        for (final ReactorIdle mode : values())
        {
            if (mode.id.equals(name))
            {
                return mode;
            }
        }
        throw new IllegalArgumentException("--idle is select, spin, yield or backoff, not " + name);
    }

    /**
     * Sets a reactor's config to this mode.
     *
     * @param config the config.
     * @return the config.
     */
    public ReactorConfig applyTo(final ReactorConfig config)
    {
        switch (this)
        {
            case SELECT:
                return config.waitInSelector(true);
            case SPIN:
                return config.idleStrategy(new BusySpinIdleStrategy());
            case YIELD:
                return config.idleStrategy(new YieldingIdleStrategy());
            default:
                return config.idleStrategy(new BackoffIdleStrategy(100, 10, 1_000, 100_000));
        }
    }

    /** @return the name {@code --idle} takes. */
    public String id()
    {
        return id;
    }
}
