package io.celer.reactor.internal;

/**
 * A reactor's unit of work (a channel owner, a callback) that names another object to blame when it runs long
 * in a stalled cycle: a connection names its handler, so that a stall names the application's class rather
 * than Celer's.
 */
public interface StallCulprit
{
    /**
     * What to name in its place; asked only after a stall, never per message.
     *
     * @return the object whose class is named (itself, or one that is a {@code StallCulprit} in turn), or null
     *         to name this one.
     */
    Object culprit();

    /**
     * The class to name for a unit of work: followed through {@link #culprit()} a few steps, without allocating.
     *
     * @param work what ran, or null.
     * @return its class, or null for null.
     */
    static Class<?> classOf(final Object work)
    {
        Object named = work;
        // Bounded: a chain that loops names where it stands.
        for (int i = 0; i < 4 && named instanceof StallCulprit; i++)
        {
            final Object next = ((StallCulprit)named).culprit();
            if (next == null || next == named)
            {
                break;
            }
            named = next;
        }
        return named == null ? null : named.getClass();
    }
}
