package io.celer.linux.uring;

/**
 * Packs what a completion must say about its operation into the {@code long} the kernel carries back: the slot of
 * its connection in the owner's table (32 bits), that slot's generation when the operation was prepared (24 bits)
 * and the operation (8 bits). A slot is reused once its connection closes, and a completion may still arrive for
 * the closed one (a cancelled receive, a send in flight): its older generation tells it apart, so that it is never
 * delivered to the slot's next connection.
 */
public final class UserData
{
    /** Generations wrap within 24 bits. */
    public static final int GENERATION_MASK = 0xFF_FFFF;

    private UserData()
    {
    }

    /**
     * The user data of an operation.
     *
     * @param slot       the connection's slot, from 0.
     * @param generation the slot's generation; only its low 24 bits are kept.
     * @param operation  the owner's code for the operation, 0 to 255.
     * @return the packed value.
     */
    public static long of(final int slot, final int generation, final int operation)
    {
        return (long)slot << 32 | (long)(generation & GENERATION_MASK) << 8 | (operation & 0xFF);
    }

    /**
     * The slot.
     *
     * @param userData a packed value.
     * @return its slot.
     */
    public static int slot(final long userData)
    {
        return (int)(userData >>> 32);
    }

    /**
     * The generation.
     *
     * @param userData a packed value.
     * @return its generation, 24 bits.
     */
    public static int generation(final long userData)
    {
        return (int)(userData >>> 8) & GENERATION_MASK;
    }

    /**
     * The operation.
     *
     * @param userData a packed value.
     * @return its code.
     */
    public static int operation(final long userData)
    {
        return (int)userData & 0xFF;
    }

    /**
     * The generation after a slot's: what a slot takes when its connection closes.
     *
     * @param generation the current one.
     * @return the next, wrapping within 24 bits.
     */
    public static int next(final int generation)
    {
        return (generation + 1) & GENERATION_MASK;
    }
}
