package io.celer.bench.queues;

/**
 * What every queue in the benchmark carries: a number, and which pool it goes back to.
 */
public final class Message
{
    /** The payload, written by the sender and read by the receiver. */
    long value;

    /** The pool the receiver gives it back to; unused by queues that keep their carriers. */
    final int owner;

    /**
     * A message of no pool: a carrier that stays in its queue.
     */
    public Message()
    {
        this(0);
    }

    /**
     * A message of a pool.
     *
     * @param owner the pool's index.
     */
    public Message(final int owner)
    {
        this.owner = owner;
    }
}
