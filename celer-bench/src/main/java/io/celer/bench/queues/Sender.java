package io.celer.bench.queues;

import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

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
}
