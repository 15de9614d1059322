package io.celer.reactor.internal;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;

import io.celer.reactor.StreamSocket;

/**
 * A reactor's plumbing for Celer's own channels and layers (TCP, UDP, the WebSocket fan-out): the selector, the
 * busy pollers and the end-of-cycle tasks. Reached through {@code Reactor.internals()}; every method is for the
 * reactor thread only. Not for applications, and free to change in any release.
 */
public interface ReactorInternals
{
    /**
     * Registers a channel with the selector.
     *
     * @param channel a non-blocking channel.
     * @param ops     the interest set.
     * @param owner   what handles its events.
     * @return the selection key.
     * @throws ClosedChannelException if the channel is closed.
     */
    SelectionKey register(SelectableChannel channel, int ops, Selectable owner) throws ClosedChannelException;

    /**
     * Registers an accepted stream socket with the selector.
     *
     * @param socket a socket of this reactor's transport.
     * @param ops    the interest set.
     * @param owner  what handles its events.
     * @return the selection key: the socket itself.
     * @throws ClosedChannelException if the socket is closed.
     */
    SelectionKey register(StreamSocket socket, int ops, Selectable owner)
        throws ClosedChannelException;

    /**
     * Where the reactor's selector came from: channels to register with it must come from there too.
     *
     * @return the provider.
     */
    java.nio.channels.spi.SelectorProvider selectorProvider();

    /**
     * Whether its channels' reads and writes must stay on the reactor thread: on io_uring they go through the
     * reactor's rings, which one thread drives. The JDK's and the epoll transport's channels may be read and
     * written from another thread while the reactor leaves them alone.
     *
     * @return true when another thread must not do a channel's I/O.
     */
    boolean confinesChannelIo();

    /**
     * Closes now the sockets of channels closed while registered, which the selector keeps open until its next
     * select. Inside a channel's {@code onSelect}, it happens as soon as that select ends.
     *
     * @throws IOException if the selector fails.
     */
    void releaseClosedChannels() throws IOException;

    /**
     * Starts reading a channel owner every cycle, until {@link #removePoller(Poller)}. Copies the poller array:
     * call it when a channel opens, not per message.
     *
     * @param poller the owner, polled after the selector's ready keys.
     */
    void addPoller(Poller poller);

    /**
     * Stops polling a channel owner. Does nothing for one not polled.
     *
     * @param poller the owner.
     */
    void removePoller(Poller poller);

    /**
     * The number of channel owners read every cycle.
     *
     * @return the count; exact on the reactor thread.
     */
    int pollerCount();

    /**
     * Runs a task once at the end of this cycle, after all I/O and timers.
     *
     * @param task what to run; the caller avoids queueing the same task twice in one cycle.
     */
    void runAtEndOfCycle(CycleTask task);

    /**
     * Runs a task once in the next cycle, after that cycle's I/O, so that work done in slices lets the reactor's
     * other channels have their turn between two slices. The reactor does not wait for I/O while one is queued.
     *
     * @param task what to run; the caller avoids queueing the same task twice in one cycle.
     */
    void runNextCycle(CycleTask task);

    /**
     * The number of the current cycle, for work bounded per cycle to tell one cycle from the next.
     *
     * @return a count that grows by one each cycle.
     */
    long cycle();

    /**
     * The reactor's bound on large per-message buffers, for the protocols that gather messages.
     *
     * @return the budget, the same for the reactor's life.
     */
    LargeBufferBudget largeBuffers();
}
