package io.celer.websocket.outbound;

import io.celer.reactor.CallbackMux;
import io.celer.reactor.Reactor;

/**
 * Sends messages to a reactor's clients from other threads, without locks or garbage: a producer thread
 * {@link #claim()}s a pre-allocated {@link Publication}, fills and addresses it, and {@link #publish()}es; the
 * reactor hands it to its {@link Fanout}, which sends or queues it per client.
 *
 * <p>Each producer thread has a lane of its own (order is kept per producer), allocated on its first claim with all
 * its carriers, each with a payload buffer as large as the configured largest message. A full lane means the
 * reactor is behind: {@link #claim()} returns null and the producer chooses to wait, drop or slow down.
 */
public final class Publisher
{
    private final CallbackMux<Publication> lanes;

    /**
     * A publisher into a reactor's clients; build it before the reactor starts or on its thread.
     *
     * @param reactor      the reactor that runs the clients.
     * @param fanout       its clients.
     * @param laneCapacity publications in flight per producer thread.
     * @param maxProducers the most producer threads.
     */
    public Publisher(final Reactor reactor, final Fanout fanout, final int laneCapacity, final int maxProducers)
    {
        final int capacity = fanout.config().maxMessageLength();
        this.lanes = reactor.callbackMux(laneCapacity, () -> new Publication(fanout, capacity), maxProducers);
    }

    /**
     * Producer: an empty publication from the calling thread's lane.
     *
     * @return the publication, or null when the lane is full.
     * @throws IllegalStateException when this thread would be one producer too many.
     */
    public Publication claim()
    {
        final Publication publication = lanes.next();
        if (publication != null)
        {
            publication.reset();
        }
        return publication;
    }

    /**
     * Producer: an empty publication, publishing what was claimed and running {@code whileFull} between tries while
     * the lane is full.
     *
     * @param whileFull what to do between tries: {@code Thread::onSpinWait}, an idle strategy's idle...
     * @return the publication.
     */
    public Publication claim(final Runnable whileFull)
    {
        final Publication publication = lanes.next(whileFull);
        publication.reset();
        return publication;
    }

    /**
     * Producer: hands every publication the calling thread filled to the reactor.
     */
    public void publish()
    {
        lanes.flush();
    }
}
