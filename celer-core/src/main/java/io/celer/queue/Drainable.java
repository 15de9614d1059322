package io.celer.queue;

import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The consumer's side of a carrier queue: what a reactor needs to drain one queue or a mux of them alike.
 *
 * @param <E> the carrier type.
 */
public interface Drainable<E>
{
    /**
     * Consumer: hands published carriers to an action in order, checking a condition before each one and
     * stopping, leaving the rest published, as soon as it is false; the action itself may turn it false.
     *
     * @param action    called once per carrier, in order.
     * @param limit     the most carriers to take (from each lane, for a mux).
     * @param condition asked before each carrier; false stops the drain.
     * @return how many were taken.
     */
    int drainWhile(Consumer<? super E> action, int limit, BooleanSupplier condition);

    /**
     * Whether a published carrier waits for the consumer; a hint under concurrency.
     *
     * @return true when a drain would find something.
     */
    boolean hasPublished();
}
