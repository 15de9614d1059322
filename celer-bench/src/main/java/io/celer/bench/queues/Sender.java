package io.celer.bench.queues;

import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

import io.celer.queue.CarrierQueue;

/**
 * A producer thread's own fields, apart from the shared queue so that writing them disturbs no other thread's
 * cache line (JMH pads each state object).
 */
@State(Scope.Thread)
public class Sender
{
    /** The next value to send. */
    long next;

    /** The pool this producer takes from, once it has joined; null before, and for queues without pools. */
    MessagePool<Message> pool;

    /** This producer's lane of Celer's mux, once it has sent; null before, and for other queues. */
    CarrierQueue<Message> lane;
}
