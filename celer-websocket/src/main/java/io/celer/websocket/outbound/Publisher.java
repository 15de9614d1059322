package io.celer.websocket.outbound;

import java.util.Objects;
import java.util.function.IntFunction;
import java.util.function.Function;

import io.celer.reactor.CallbackMux;
import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorGroup;

/**
 * Sends messages to the clients of a reactor, or of every reactor of a group, from other threads, without locks or
 * garbage: a producer thread {@link #claim()}s a pre-allocated {@link Publication}, fills and addresses it, and
 * {@link #publish()}es; each reactor hands it to its {@link Fanout}, which sends or queues it per client.
 *
 * <p>Each producer thread has a lane of its own into each reactor (order is kept per producer), allocated on its
 * first claim with all its carriers, each with a payload buffer as large as the configured largest message. A full
 * lane means a reactor is behind: {@link #claim()} returns null and the producer chooses to wait, drop or slow
 * down.
 *
 * <p>Over a group, the producer fills one publication and each other member gets a copy of it when the producer
 * claims its next one or publishes: the copies cost the producer's thread, not the reactors'. A publication to one
 * client goes to every member too, and only the member holding that client sends it; a producer sending mostly to
 * single clients and knowing their reactors does better with a publisher per reactor.
 */
public final class Publisher
{
    private final CallbackMux<Publication>[] members;
    /** Each producer thread's claims across the members; null with a single member, which needs no copies. */
    private final ThreadLocal<GroupClaims> claims;

    /**
     * A publisher into a reactor's clients; build it before the reactor starts or on its thread.
     *
     * @param reactor      the reactor that runs the clients.
     * @param fanout       its clients.
     * @param laneCapacity publications in flight per producer thread.
     * @param maxProducers the most producer threads.
     */
    @SuppressWarnings("unchecked")
    public Publisher(final Reactor reactor, final Fanout fanout, final int laneCapacity, final int maxProducers)
    {
        final int capacity = fanout.config().maxMessageLength();
        this.members = new CallbackMux[] {
            reactor.callbackMux(laneCapacity, () -> new Publication(fanout, capacity), maxProducers)};
        this.claims = null;
    }

    /**
     * A publisher into the clients of every reactor of a group; build it from a thread of no member, before the
     * group starts or while it runs (it then waits for each member to set up its lanes).
     *
     * @param group        the reactors.
     * @param fanouts      the clients of the member at each index, from 0 to {@code group.size() - 1}; all with the
     *                     same largest message.
     * @param laneCapacity publications in flight per producer thread and member.
     * @param maxProducers the most producer threads.
     * @throws IllegalArgumentException when the fanouts' largest messages differ.
     */
    @SuppressWarnings("unchecked")
    public Publisher(final ReactorGroup group, final IntFunction<Fanout> fanouts, final int laneCapacity,
        final int maxProducers)
    {
        final int size = group.size();
        final Fanout[] each = new Fanout[size];
        for (int i = 0; i < size; i++)
        {
            each[i] = Objects.requireNonNull(fanouts.apply(i), "the fanout of member " + i);
            if (each[i].config().maxMessageLength() != each[0].config().maxMessageLength())
            {
                throw new IllegalArgumentException("every member's fanout needs the same largest message: " +
                    each[0].config().maxMessageLength() + " at member 0, " + each[i].config().maxMessageLength() +
                    " at member " + i);
            }
        }
        final int capacity = each[0].config().maxMessageLength();
        this.members = new CallbackMux[size];
        for (int i = 0; i < size; i++)
        {
            final Fanout fanout = each[i];
            members[i] = onThreadOf(group.reactor(i),
                reactor -> reactor.callbackMux(laneCapacity, () -> new Publication(fanout, capacity), maxProducers));
        }
        this.claims = size == 1 ? null : ThreadLocal.withInitial(() -> new GroupClaims(members));
    }

    /** Builds a reactor's lanes where it may: here before it starts, else on its thread. */
    private static CallbackMux<Publication> onThreadOf(final Reactor reactor,
        final Function<Reactor, CallbackMux<Publication>> build)
    {
        if (reactor.thread() == null || reactor.isReactorThread())
        {
            return build.apply(reactor);
        }
        final Object[] built = new Object[1];
        reactor.call(() -> built[0] = build.apply(reactor));
        @SuppressWarnings("unchecked")
        final CallbackMux<Publication> mux = (CallbackMux<Publication>)built[0];
        return mux;
    }

    /**
     * Producer: an empty publication from the calling thread's lane (its lanes, over a group).
     *
     * @return the publication, or null when a lane is full.
     * @throws IllegalStateException when this thread would be one producer too many.
     */
    public Publication claim()
    {
        if (claims != null)
        {
            return claims.get().claim();
        }
        final Publication publication = members[0].next();
        if (publication != null)
        {
            publication.reset();
        }
        return publication;
    }

    /**
     * Producer: an empty publication, publishing what was claimed and running {@code whileFull} between tries while
     * a lane is full.
     *
     * @param whileFull what to do between tries: {@code Thread::onSpinWait}, an idle strategy's idle...
     * @return the publication.
     */
    public Publication claim(final Runnable whileFull)
    {
        if (claims != null)
        {
            return claims.get().claim(whileFull);
        }
        final Publication publication = members[0].next(whileFull);
        publication.reset();
        return publication;
    }

    /**
     * Producer: hands every publication the calling thread filled to the reactor or reactors.
     */
    public void publish()
    {
        if (claims != null)
        {
            claims.get().publish();
            return;
        }
        members[0].flush();
    }

    /**
     * One producer thread's claims over a group's members: the publication being filled, its copies-to-be on the
     * other members, and slots held on some members while another member's lane was full.
     */
    private static final class GroupClaims
    {
        private final CallbackMux<Publication>[] members;
        /** Claimed and emptied, not yet handed out: kept across a failed claim so that no retry claims more. */
        private final Publication[] held;
        /** The other members' slots for {@link #filling}, from index 1. */
        private final Publication[] copies;
        private Publication filling;

        GroupClaims(final CallbackMux<Publication>[] members)
        {
            this.members = members;
            this.held = new Publication[members.length];
            this.copies = new Publication[members.length];
        }

        Publication claim()
        {
            copyFilling();
            for (int i = 0; i < members.length; i++)
            {
                if (held[i] == null)
                {
                    final Publication slot = members[i].next();
                    if (slot == null)
                    {
                        return null;
                    }
                    // Empty at once: should a publish come before this claim completes, the slot goes as a no-op.
                    slot.reset();
                    held[i] = slot;
                }
            }
            filling = held[0];
            held[0] = null;
            for (int i = 1; i < members.length; i++)
            {
                copies[i] = held[i];
                held[i] = null;
            }
            return filling;
        }

        Publication claim(final Runnable whileFull)
        {
            Publication publication = claim();
            if (publication == null)
            {
                // The full lane frees only once its reactor sees what was filled and wakes for it. Slots held
                // by the failed claim go along as no-ops; those held while waiting stay unpublished, so a long
                // wait costs a lane no more than one slot.
                publish();
                while ((publication = claim()) == null)
                {
                    whileFull.run();
                }
            }
            return publication;
        }

        void publish()
        {
            copyFilling();
            for (int i = 0; i < members.length; i++)
            {
                members[i].flush();
                // A held slot went with the others, empty: it is the reactor's again.
                held[i] = null;
            }
        }

        private void copyFilling()
        {
            if (filling == null)
            {
                return;
            }
            for (int i = 1; i < members.length; i++)
            {
                filling.copyTo(copies[i]);
                copies[i] = null;
            }
            filling = null;
        }
    }
}
