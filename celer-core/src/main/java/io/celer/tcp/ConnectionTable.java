package io.celer.tcp;

import java.util.ArrayList;
import java.util.List;

import org.agrona.collections.Hashing;

/**
 * A server's open connections on one reactor, found by id: an open-addressing table of the connections
 * themselves, each at the place its id hashes to or the first free one after.
 *
 * <p>Hand-written because a map by id (Agrona's {@code Long2ObjectHashMap}) keeps each id again in an array of
 * its own: 12 bytes per place, where a connection already knows its id and this table keeps 4, on each of
 * thousands of idle connections. A lookup compares the ids of the connections it passes. Garbage-free once grown
 * to the most connections open at once; reactor thread only.
 */
final class ConnectionTable
{
    /** At most this share of places taken, as Agrona's maps keep theirs: probes stay short. */
    private static final float LOAD_FACTOR = 0.65f;
    private static final int INITIAL_CAPACITY = 16;

    private TcpConnection[] places = new TcpConnection[INITIAL_CAPACITY];
    private int size;
    private int resizeAt = (int)(INITIAL_CAPACITY * LOAD_FACTOR);

    /**
     * How many connections it holds.
     */
    int size()
    {
        return size;
    }

    /**
     * Adds an open connection, under its id, which must stay the same until it is removed.
     */
    void add(final TcpConnection connection)
    {
        if (size == resizeAt)
        {
            grow();
        }
        final int mask = places.length - 1;
        int index = Hashing.hash(connection.id(), mask);
        while (places[index] != null)
        {
            if (places[index] == connection)
            {
                return;
            }
            index = (index + 1) & mask;
        }
        places[index] = connection;
        size++;
    }

    /**
     * The connection with this id, or null.
     */
    TcpConnection get(final long id)
    {
        final TcpConnection[] places = this.places;
        final int mask = places.length - 1;
        int index = Hashing.hash(id, mask);
        TcpConnection candidate;
        while ((candidate = places[index]) != null)
        {
            if (candidate.id() == id)
            {
                return candidate;
            }
            index = (index + 1) & mask;
        }
        return null;
    }

    /**
     * Removes a connection, if held.
     *
     * @return whether it was held.
     */
    boolean remove(final TcpConnection connection)
    {
        final TcpConnection[] places = this.places;
        final int mask = places.length - 1;
        int index = Hashing.hash(connection.id(), mask);
        TcpConnection candidate;
        while ((candidate = places[index]) != null)
        {
            if (candidate == connection)
            {
                places[index] = null;
                size--;
                closeGap(index);
                return true;
            }
            index = (index + 1) & mask;
        }
        return false;
    }

    /**
     * The connections held now, in a list of their own, so that closing them may remove them from the table.
     */
    List<TcpConnection> snapshot()
    {
        final List<TcpConnection> held = new ArrayList<>(size);
        for (final TcpConnection connection : places)
        {
            if (connection != null)
            {
                held.add(connection);
            }
        }
        return held;
    }

    /**
     * Moves back the connections after a freed place whose probe passed it, so that every lookup still finds its
     * connection before the first free place (deletion in linear probing, Knuth's Algorithm R).
     */
    private void closeGap(final int freed)
    {
        final TcpConnection[] places = this.places;
        final int mask = places.length - 1;
        int gap = freed;
        int index = (freed + 1) & mask;
        TcpConnection moving;
        while ((moving = places[index]) != null)
        {
            final int home = Hashing.hash(moving.id(), mask);
            // It stays if its home lies after the gap and no later than where it is, the table's end wrapping.
            final boolean stays = gap <= index ? gap < home && home <= index : gap < home || home <= index;
            if (!stays)
            {
                places[gap] = moving;
                places[index] = null;
                gap = index;
            }
            index = (index + 1) & mask;
        }
    }

    private void grow()
    {
        final TcpConnection[] old = places;
        final int capacity = old.length << 1;
        places = new TcpConnection[capacity];
        resizeAt = (int)(capacity * LOAD_FACTOR);
        final int mask = capacity - 1;
        for (final TcpConnection connection : old)
        {
            if (connection != null)
            {
                int index = Hashing.hash(connection.id(), mask);
                while (places[index] != null)
                {
                    index = (index + 1) & mask;
                }
                places[index] = connection;
            }
        }
    }
}
