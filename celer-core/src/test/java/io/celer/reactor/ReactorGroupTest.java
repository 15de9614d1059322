package io.celer.reactor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

/**
 * A {@link ReactorGroup} names, starts, stops and awaits its members as one.
 */
class ReactorGroupTest
{
    @Test
    void membersAreNamedAfterTheGroupAndRunOnThreadsOfTheirOwn() throws InterruptedException
    {
        final ReactorGroup group = ReactorGroup.create("shard", 3);
        try
        {
            group.start();
            final List<String> names = new CopyOnWriteArrayList<>();
            for (int i = 0; i < group.size(); i++)
            {
                final Reactor member = group.reactor(i);
                member.call(() -> names.add(Thread.currentThread().getName()));
                member.call(() -> assertThat(group.current()).isSameAs(member));
                assertThat(group.indexOf(member)).isEqualTo(i);
            }
            assertThat(names).containsExactly("shard-0", "shard-1", "shard-2");
            assertThat(group.current()).as("the test thread is no member").isNull();
            assertThat(group.indexOf(new Reactor(new ReactorConfig()))).as("a reactor of no group").isEqualTo(-1);
        }
        finally
        {
            group.stop();
        }
        for (int i = 0; i < group.size(); i++)
        {
            assertThat(group.reactor(i).isRunning()).isFalse();
            assertThat(exited(group.reactor(i))).isTrue();
        }
    }

    /** Whether the reactor's thread ends soon: its loop has ended once it is awaited. */
    private static boolean exited(final Reactor reactor) throws InterruptedException
    {
        reactor.thread().join(10_000);
        return !reactor.thread().isAlive();
    }

    @Test
    void nextGoesRoundTheMembers()
    {
        final ReactorGroup group = ReactorGroup.create("round", 2);
        final List<Reactor> picked = new ArrayList<>();
        for (int i = 0; i < 5; i++)
        {
            picked.add(group.next());
        }
        assertThat(picked).containsExactly(group.reactor(0), group.reactor(1), group.reactor(0), group.reactor(1),
            group.reactor(0));
        group.stop();
    }

    @Test
    void stopWaitsForEveryMemberAndAwaitReturnsAfter() throws InterruptedException
    {
        final ReactorGroup group = ReactorGroup.create("stopping", 2).start();
        final Thread stopper = new Thread(group::stop);
        stopper.start();
        group.awaitTermination();
        for (int i = 0; i < group.size(); i++)
        {
            assertThat(exited(group.reactor(i))).isTrue();
        }
    }

    @Test
    void badSizesAndCpuListsAreRefused()
    {
        assertThatThrownBy(() -> ReactorGroup.create("none", 0))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one reactor");
        assertThatThrownBy(() -> ReactorGroup.create("short", 3, 0, 1))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("one CPU per reactor");
        assertThatThrownBy(() -> new ReactorGroup(2, i -> null))
            .isInstanceOf(NullPointerException.class).hasMessageContaining("settings of reactor 0");
        final ReactorGroup twice = ReactorGroup.create("twice", 1).start();
        try
        {
            assertThatThrownBy(twice::start).isInstanceOf(IllegalStateException.class);
        }
        finally
        {
            twice.stop();
        }
    }
}
