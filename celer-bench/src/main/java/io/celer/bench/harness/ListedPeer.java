package io.celer.bench.harness;

/**
 * A peer of a benchmark's list, an enum constant that holds what it is as a {@link FixedPeer} and answers for
 * it; the enum adds only what its benchmark needs (main classes, modes).
 */
public interface ListedPeer extends Peer
{
    /**
     * What this peer is.
     *
     * @return its name, description, library and transport.
     */
    FixedPeer self();

    @Override
    default String id()
    {
        return self().id();
    }

    @Override
    default String description()
    {
        return self().description();
    }

    @Override
    default boolean isCeler()
    {
        return self().isCeler();
    }

    @Override
    default String transport()
    {
        return self().transport();
    }

    @Override
    default boolean onNetty42()
    {
        return self().onNetty42();
    }
}
