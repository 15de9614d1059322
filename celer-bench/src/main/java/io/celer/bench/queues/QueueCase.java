package io.celer.bench.queues;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * One benchmark of {@code bench queues}: a kind of transfer and an implementation of it.
 */
enum QueueCase
{
    /** Celer's one-to-one carrier queue. */
    ONE_TO_ONE_CELER(Kind.ONE_TO_ONE, "celer", "CarrierQueue"),
    /** Agrona's one-to-one queue and a pool. */
    ONE_TO_ONE_AGRONA(Kind.ONE_TO_ONE, "agrona", "OneToOneConcurrentArrayQueue + pool"),
    /** JCTools' SPSC queue and a pool. */
    ONE_TO_ONE_JCTOOLS(Kind.ONE_TO_ONE, "jctools", "SpscArrayQueue + pool"),
    /** The Disruptor's single-producer ring. */
    ONE_TO_ONE_DISRUPTOR(Kind.ONE_TO_ONE, "disruptor", "RingBuffer (single producer) + EventPoller"),
    /** Celer's mux. */
    MANY_TO_ONE_CELER(Kind.MANY_TO_ONE, "celer", "CarrierMux"),
    /** Agrona's many-to-one queue and a pool per producer. */
    MANY_TO_ONE_AGRONA(Kind.MANY_TO_ONE, "agrona", "ManyToOneConcurrentArrayQueue + pools"),
    /** JCTools' MPSC queue and a pool per producer. */
    MANY_TO_ONE_JCTOOLS(Kind.MANY_TO_ONE, "jctools", "MpscArrayQueue + pools"),
    /** The Disruptor's multi-producer ring. */
    MANY_TO_ONE_DISRUPTOR(Kind.MANY_TO_ONE, "disruptor", "RingBuffer (multi producer) + EventPoller"),
    /** Two Celer carrier queues. */
    ROUND_TRIP_CELER(Kind.ROUND_TRIP, "celer", "2 x CarrierQueue"),
    /** Two Agrona queues and pools. */
    ROUND_TRIP_AGRONA(Kind.ROUND_TRIP, "agrona", "2 x OneToOneConcurrentArrayQueue + pools"),
    /** Two JCTools queues and pools. */
    ROUND_TRIP_JCTOOLS(Kind.ROUND_TRIP, "jctools", "2 x SpscArrayQueue + pools"),
    /** Two Disruptor rings. */
    ROUND_TRIP_DISRUPTOR(Kind.ROUND_TRIP, "disruptor", "2 x RingBuffer (single producer) + EventPoller"),
    /** A reactor reached through callAsync, answering through a carrier queue. */
    REACTOR_ROUND_TRIP_CELER(Kind.REACTOR_ROUND_TRIP, "celer", "Reactor.callAsync + CarrierQueue", "callAsync"),
    /** A reactor reached through a callback queue, answering through a carrier queue. */
    REACTOR_CALLBACK_ROUND_TRIP_CELER(Kind.REACTOR_CALLBACK_ROUND_TRIP, "celer", "Reactor CallbackQueue + CarrierQueue",
        "callbackQueue");

    /**
     * What a benchmark measures.
     */
    enum Kind
    {
        /** One producer, one consumer, messages per second. */
        ONE_TO_ONE("one-to-one", OneToOneThroughput.class, "msgs/s"),
        /** Two producers, one consumer, messages per second. */
        MANY_TO_ONE("many-to-one", ManyToOneThroughput.class, "msgs/s"),
        /** Ping-pong through two queues, nanoseconds per round trip. */
        ROUND_TRIP("round-trip", RoundTripLatency.class, "ns"),
        /** Ping-pong through a busy-spinning reactor by callAsync, nanoseconds per round trip. */
        REACTOR_ROUND_TRIP("reactor-round-trip", ReactorRoundTrip.class, "ns"),
        /** Ping-pong through a busy-spinning reactor by a callback queue, nanoseconds per round trip. */
        REACTOR_CALLBACK_ROUND_TRIP("reactor-callback-round-trip", ReactorRoundTrip.class, "ns");

        private final String id;
        private final Class<?> benchmark;
        private final String unit;

        Kind(final String id, final Class<?> benchmark, final String unit)
        {
            this.id = id;
            this.benchmark = benchmark;
            this.unit = unit;
        }

        /**
         * The kind's name on the command line and in the results.
         *
         * @return such as {@code one-to-one}.
         */
        String id()
        {
            return id;
        }

        /**
         * The score's unit.
         *
         * @return {@code msgs/s} or {@code ns}.
         */
        String unit()
        {
            return unit;
        }

        /**
         * Whether the score is a rate (more is better) rather than a time.
         *
         * @return true for throughput.
         */
        boolean throughput()
        {
            return unit.equals("msgs/s");
        }
    }

    private final Kind kind;
    private final String implementation;
    private final String queue;
    private final String method;

    QueueCase(final Kind kind, final String implementation, final String queue)
    {
        this(kind, implementation, queue, implementation);
    }

    QueueCase(final Kind kind, final String implementation, final String queue, final String method)
    {
        this.kind = kind;
        this.implementation = implementation;
        this.queue = queue;
        this.method = method;
    }

    /**
     * What it measures.
     *
     * @return the kind.
     */
    Kind kind()
    {
        return kind;
    }

    /**
     * Whose queue.
     *
     * @return {@code celer}, {@code agrona}, {@code jctools} or {@code disruptor}.
     */
    String implementation()
    {
        return implementation;
    }

    /**
     * The classes it runs.
     *
     * @return a short description.
     */
    String queue()
    {
        return queue;
    }

    /**
     * The JMH benchmark's name, which is also the pattern that selects it alone.
     *
     * @return such as {@code io.celer.bench.queues.OneToOneThroughput.celer}.
     */
    String benchmark()
    {
        return kind.benchmark.getName() + "." + method;
    }

    /**
     * The cases of some kinds and implementations, in table order.
     *
     * @param kinds           comma-separated kind names.
     * @param implementations comma-separated implementation names.
     * @return the cases.
     * @throws IllegalArgumentException for an unknown name, or when nothing is left.
     */
    static List<QueueCase> select(final String kinds, final String implementations)
    {
        final List<String> kindIds = known("kind", names(kinds), Stream.of(Kind.values()).map(Kind::id).toList());
        final List<String> implementationIds = known("implementation", names(implementations),
            Stream.of(values()).map(QueueCase::implementation).distinct().toList());
        final List<QueueCase> cases = new ArrayList<>();
        for (final QueueCase c : values())
        {
            if (kindIds.contains(c.kind.id) && implementationIds.contains(c.implementation))
            {
                cases.add(c);
            }
        }
        if (cases.isEmpty())
        {
            throw new IllegalArgumentException("no benchmark selected");
        }
        return cases;
    }

    /**
     * Checks names against the known ones, which the refusal lists in declaration order.
     *
     * @param what  what the names are, for the refusal.
     * @param names the names asked for.
     * @param known the names there are.
     * @return {@code names}.
     * @throws IllegalArgumentException for an unknown name.
     */
    private static List<String> known(final String what, final List<String> names, final List<String> known)
    {
        for (final String name : names)
        {
            if (!known.contains(name))
            {
                throw new IllegalArgumentException(
                    "unknown " + what + ": " + name + " (" + String.join(", ", known) + ")");
            }
        }
        return names;
    }

    private static List<String> names(final String list)
    {
        final List<String> names = new ArrayList<>();
        for (final String name : list.split(","))
        {
            if (!name.isBlank())
            {
                names.add(name.trim().toLowerCase(Locale.ROOT));
            }
        }
        return names;
    }
}
