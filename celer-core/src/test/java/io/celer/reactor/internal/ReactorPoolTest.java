package io.celer.reactor.internal;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReactorPoolTest
{
    @Test
    void lendsWhatWasGivenBackLastAndMakesOneOnlyWhenNoneIsKept()
    {
        final ReactorPool<ByteBuffer> pool = ReactorPool.directBuffers(64, 2);
        final ByteBuffer first = pool.take();
        assertThat(first.isDirect()).isTrue();
        assertThat(first.capacity()).isEqualTo(64);
        assertThat(pool.made()).isEqualTo(1);
        first.put((byte)1).flip();
        pool.give(first);
        assertThat(pool.kept()).isEqualTo(1);

        final ByteBuffer again = pool.take();
        assertThat(again).isSameAs(first);
        assertThat(again.limit()).as("returned as it was given back, for the taker to reset").isEqualTo(1);
        assertThat(pool.kept()).isZero();
        assertThat(pool.made()).isEqualTo(1);
        assertThat(pool.take()).isNotSameAs(first);
        assertThat(pool.made()).isEqualTo(2);
    }

    @Test
    void keepsNoMoreThanItsBound()
    {
        final ReactorPool<Object> pool = new ReactorPool<>(2, Object::new);
        final Object a = pool.take();
        final Object b = pool.take();
        final Object c = pool.take();
        pool.give(a);
        pool.give(b);
        pool.give(c);
        assertThat(pool.kept()).isEqualTo(2);
        assertThat(pool.take()).isSameAs(b);
        assertThat(pool.take()).isSameAs(a);
        assertThat(pool.made()).isEqualTo(3);
    }

    @Test
    void keepsNoneWithABoundOfZero()
    {
        final ReactorPool<Object> pool = new ReactorPool<>(0, Object::new);
        pool.give(pool.take());
        assertThat(pool.kept()).isZero();
        assertThatThrownBy(() -> new ReactorPool<>(-1, Object::new)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void drainedKeepsNothingUntilToldToKeepAgain()
    {
        final ReactorPool<Object> pool = new ReactorPool<>(4, Object::new);
        final Object a = pool.take();
        final Object b = pool.take();
        pool.give(a);
        pool.drain();
        assertThat(pool.kept()).isZero();
        pool.give(b);
        assertThat(pool.kept()).as("given back while drained").isZero();

        pool.keep();
        pool.give(b);
        assertThat(pool.kept()).isEqualTo(1);
        assertThat(pool.take()).isSameAs(b);
    }

    @Test
    void growsToKeepManyAndTrimsToThePeakThenToTheFloor()
    {
        final ReactorPool<Object> pool = new ReactorPool<>(Integer.MAX_VALUE, Object::new);
        final java.util.List<Object> out = new java.util.ArrayList<>();
        for (int i = 0; i < 40; i++)
        {
            out.add(pool.take());
        }
        assertThat(pool.lent()).isEqualTo(40);
        for (final Object each : out)
        {
            pool.give(each);
        }
        assertThat(pool.kept()).as("more than the first room of 16").isEqualTo(40);
        assertThat(pool.lent()).isZero();

        pool.take();
        pool.trim(4);
        assertThat(pool.kept()).as("the peak of 40 was in this interval, one of them still out").isEqualTo(39);
        pool.trim(4);
        assertThat(pool.kept()).as("a quiet interval: only the floor").isEqualTo(4);
        pool.trim(0);
        assertThat(pool.kept()).as("one out since the last trim, none needed more").isZero();
    }

    @Test
    void givesThatTrimLetGoOfAPastPeakEveryFewThousand()
    {
        final ReactorPool<Object> pool = new ReactorPool<>(Integer.MAX_VALUE, Object::new);
        final java.util.List<Object> out = new java.util.ArrayList<>();
        for (int i = 0; i < 100; i++)
        {
            out.add(pool.take());
        }
        for (final Object each : out)
        {
            pool.giveAndTrim(each, 8);
        }
        assertThat(pool.kept()).as("a burst of 100 given back").isEqualTo(100);

        // One at a time from then on, a steady load that needs one: the first trim, at the 16,384th give, keeps
        // what the burst in its interval needed; the next, 16,384 gives later, only the floor.
        for (int gives = 100; gives < 16_384; gives++)
        {
            pool.giveAndTrim(pool.take(), 8);
        }
        assertThat(pool.kept()).as("after the first trim").isEqualTo(100);
        for (int gives = 0; gives < 16_383; gives++)
        {
            pool.giveAndTrim(pool.take(), 8);
        }
        assertThat(pool.kept()).as("one give before the second trim").isEqualTo(100);
        pool.giveAndTrim(pool.take(), 8);
        assertThat(pool.kept()).as("the floor").isEqualTo(8);
    }
}
