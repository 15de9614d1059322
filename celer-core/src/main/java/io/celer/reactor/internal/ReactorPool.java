package io.celer.reactor.internal;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.function.Supplier;

/**
 * Objects given back by what is done with them, lent again to what comes next: a bounded stack used on one
 * thread only (a reactor's), so a plain array without atomics. The one given back last is lent first, still warm
 * in the cache. Past the bound a given-back object is left to the collector, so what a burst took goes back
 * once it ends; after warm-up, taking and giving back allocate nothing. A pool that may keep many (one whose
 * objects are lent per use, not per connection) keeps at most as many as were out at once, and
 * {@link #trim} lets go of those a past peak left.
 *
 * @param <T> what is pooled.
 */
public final class ReactorPool<T>
{
    private static final int INITIAL_ROOM = 16;
    /** Objects given back through {@link #giveAndTrim} between two trims. */
    private static final int GIVES_PER_TRIM = 16_384;

    private final Supplier<? extends T> factory;
    private final int maxKept;
    private Object[] free;
    private int count;
    private long made;
    private int lent;
    private int peakLent;
    private boolean keeping = true;
    private int givesSinceTrim;

    /**
     * A pool, empty until objects are given back.
     *
     * @param maxKept how many given-back objects are kept; 0 keeps none.
     * @param factory makes an object when none is kept; called on the pool's thread.
     */
    public ReactorPool(final int maxKept, final Supplier<? extends T> factory)
    {
        if (maxKept < 0)
        {
            throw new IllegalArgumentException("maxKept is negative: " + maxKept);
        }
        this.factory = factory;
        this.maxKept = maxKept;
        // Grows as objects come back, so that a pool allowed to keep many costs nothing until it does.
        this.free = new Object[Math.min(maxKept, INITIAL_ROOM)];
    }

    /**
     * A pool of direct buffers of one capacity, which its users clear as they take them: a fresh direct buffer
     * costs a native allocation, its zeroing and a {@code Cleaner}, a lent one a {@code clear()}.
     *
     * @param capacity each buffer's capacity.
     * @param maxKept  how many given-back buffers are kept; 0 keeps none.
     * @return the pool.
     */
    public static ReactorPool<ByteBuffer> directBuffers(final int capacity, final int maxKept)
    {
        return new ReactorPool<>(maxKept, () -> ByteBuffer.allocateDirect(capacity));
    }

    /**
     * Lends an object: the one given back last, or a new one.
     *
     * @return the object, as it was given back (the caller resets what needs resetting).
     */
    @SuppressWarnings("unchecked")
    public T take()
    {
        if (++lent > peakLent)
        {
            peakLent = lent;
        }
        if (count == 0)
        {
            made++;
            return factory.get();
        }
        final T taken = (T)free[--count];
        free[count] = null;
        return taken;
    }

    /**
     * Takes back an object that its last user will never touch again; kept while there is room and the pool
     * keeps, else left to the collector.
     *
     * @param given the object.
     */
    public void give(final T given)
    {
        lent--;
        if (keeping && count < maxKept)
        {
            if (count == free.length)
            {
                free = Arrays.copyOf(free, (int)Math.min(maxKept, 2L * free.length));
            }
            free[count++] = given;
        }
    }

    /**
     * Takes back an object, as {@link #give} does, and every {@value #GIVES_PER_TRIM} of these calls trims the pool
     * to {@code floor}: for objects lent per use, so busy that the gives themselves pace the trims.
     *
     * @param given the object.
     * @param floor how many to keep at a trim whatever the peak.
     */
    public void giveAndTrim(final T given, final int floor)
    {
        give(given);
        if (++givesSinceTrim == GIVES_PER_TRIM)
        {
            givesSinceTrim = 0;
            trim(floor);
        }
    }

    /**
     * Lets go of the kept objects that the most ever out at once since the last trim would not need, keeping
     * at least {@code floor}: what a burst took goes back once it is over.
     *
     * @param floor how many to keep whatever the peak.
     */
    public void trim(final int floor)
    {
        final int keep = Math.max(floor, peakLent - lent);
        while (count > keep)
        {
            free[--count] = null;
        }
        peakLent = lent;
    }

    /**
     * Objects lent and not yet given back.
     *
     * @return how many.
     */
    public int lent()
    {
        return lent;
    }

    /**
     * Lets every kept object go, for the collector, and keeps none given back until {@link #keep}.
     */
    public void drain()
    {
        keeping = false;
        while (count > 0)
        {
            free[--count] = null;
        }
    }

    /**
     * Keeps given-back objects again, up to the bound.
     */
    public void keep()
    {
        keeping = true;
    }

    /**
     * Objects kept for the next takers.
     *
     * @return how many.
     */
    public int kept()
    {
        return count;
    }

    /**
     * Objects the factory made since the pool was made, kept ones included.
     *
     * @return how many.
     */
    public long made()
    {
        return made;
    }
}
