package io.celer.http;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class BufferStackTest
{
    @Test
    void lendsTheBufferGivenBackLastClearedAndMakesOneOnlyWhenNoneIsKept()
    {
        final BufferStack stack = new BufferStack(64, 2);
        final ByteBuffer first = stack.take();
        assertThat(first.isDirect()).isTrue();
        assertThat(first.capacity()).isEqualTo(64);
        first.put((byte)1).flip();
        stack.give(first);
        assertThat(stack.kept()).isEqualTo(1);

        final ByteBuffer again = stack.take();
        assertThat(again).isSameAs(first);
        assertThat(again.position()).isZero();
        assertThat(again.limit()).isEqualTo(64);
        assertThat(stack.kept()).isZero();
        assertThat(stack.take()).isNotSameAs(first);
    }

    @Test
    void keepsNoMoreThanItsBound()
    {
        final BufferStack stack = new BufferStack(16, 2);
        final ByteBuffer a = stack.take();
        final ByteBuffer b = stack.take();
        final ByteBuffer c = stack.take();
        stack.give(a);
        stack.give(b);
        stack.give(c);
        assertThat(stack.kept()).isEqualTo(2);
        assertThat(stack.take()).isSameAs(b);
        assertThat(stack.take()).isSameAs(a);
    }
}
