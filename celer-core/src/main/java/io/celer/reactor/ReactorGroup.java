package io.celer.reactor;

import java.util.Arrays;
import java.util.Objects;
import java.util.function.IntFunction;

/**
 * Several reactors started, stopped and awaited as one, to serve from several cores: a server bound on a group
 * accepts on every member, and each connection lives on one member's thread from accept to close.
 *
 * <pre>{@code
 * ReactorGroup group = ReactorGroup.create("celer", 2, 2, 3).start(); // celer-0 on CPU 2, celer-1 on CPU 3
 * }</pre>
 */
public final class ReactorGroup implements AutoCloseable
{
    private final Reactor[] reactors;
    private int next;

    /**
     * A group of busy-spinning reactors named {@code name-0}, {@code name-1}, ...
     *
     * @param name    the group's name, prefix of its threads' names.
     * @param size    how many reactors, at least 1.
     * @param cpus    one CPU per reactor to pin it to, in order, or none to leave them to the scheduler.
     * @return the group, not yet started.
     * @throws IllegalArgumentException if the size is below 1 or the CPUs are neither none nor one per reactor.
     */
    public static ReactorGroup create(final String name, final int size, final int... cpus)
    {
        Objects.requireNonNull(name, "name must not be null");
        if (cpus.length != 0 && cpus.length != size)
        {
            throw new IllegalArgumentException("give one CPU per reactor or none: " + size + " reactors, CPUs " +
                Arrays.toString(cpus));
        }
        return new ReactorGroup(size, i -> new ReactorConfig().name(name + "-" + i).cpu(cpus.length == 0 ? -1 : cpus[i]));
    }

    /**
     * A group whose members are built from settings of their own: each needs its own idle strategy, and its
     * own thread name and CPU, say.
     *
     * @param size    how many reactors, at least 1.
     * @param configs the settings of the member at each index, from 0 to {@code size - 1}.
     * @throws IllegalArgumentException if the size is below 1.
     */
    public ReactorGroup(final int size, final IntFunction<ReactorConfig> configs)
    {
        if (size < 1)
        {
            throw new IllegalArgumentException("a group needs at least one reactor: " + size);
        }
        reactors = new Reactor[size];
        for (int i = 0; i < size; i++)
        {
            reactors[i] = new Reactor(Objects.requireNonNull(configs.apply(i), "settings of reactor " + i));
        }
    }

    /**
     * Starts every member's thread.
     *
     * @return this.
     * @throws IllegalStateException if it was started before.
     */
    public ReactorGroup start()
    {
        for (final Reactor reactor : reactors)
        {
            reactor.start();
        }
        return this;
    }

    /**
     * Stops every member, each closing the channels it owns, and waits for them all unless called on a member's
     * thread.
     */
    public void stop()
    {
        for (final Reactor reactor : reactors)
        {
            reactor.signalStop();
        }
        for (final Reactor reactor : reactors)
        {
            reactor.stop();
        }
    }

    /**
     * Same as {@link #stop()}.
     */
    @Override
    public void close()
    {
        stop();
    }

    /**
     * Waits until every member's thread has exited.
     */
    public void awaitTermination()
    {
        for (final Reactor reactor : reactors)
        {
            reactor.awaitTermination();
        }
    }

    /**
     * The number of members.
     *
     * @return at least 1.
     */
    public int size()
    {
        return reactors.length;
    }

    /**
     * One member.
     *
     * @param index from 0 to {@code size() - 1}.
     * @return the reactor.
     */
    public Reactor reactor(final int index)
    {
        return reactors[index];
    }

    /**
     * A member's index: what a per-reactor handler factory uses to find state kept per member in an array.
     *
     * @param reactor any reactor.
     * @return its index from 0, or -1 when it is not a member.
     */
    public int indexOf(final Reactor reactor)
    {
        for (int i = 0; i < reactors.length; i++)
        {
            if (reactors[i] == reactor)
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * The member whose thread calls.
     *
     * @return the reactor, or null when called from a thread of no member.
     */
    public Reactor current()
    {
        for (final Reactor reactor : reactors)
        {
            if (reactor.isReactorThread())
            {
                return reactor;
            }
        }
        return null;
    }

    /**
     * The members in turn, for spreading clients; from one thread at a time.
     *
     * @return the next member after the one this returned last.
     */
    public Reactor next()
    {
        final Reactor reactor = reactors[next];
        next = next + 1 == reactors.length ? 0 : next + 1;
        return reactor;
    }

    @Override
    public String toString()
    {
        return "ReactorGroup" + Arrays.toString(reactors);
    }
}
