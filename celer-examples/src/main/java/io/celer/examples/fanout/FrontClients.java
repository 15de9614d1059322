package io.celer.examples.fanout;

/**
 * The front server's connected clients, linked through themselves so that joining and leaving allocate nothing,
 * and the back-pressure over them: when the request slots run out every client's reads pause, and they resume
 * together once a quarter of the slots are free again. Reactor thread only.
 *
 * <p>Pausing all of them, not only the client that took the last slot, is what keeps the front lossless: a
 * client that has not sent yet would otherwise bring a request with no slot to hold it. A pause takes effect
 * after the message being handled, and the kernel's buffers and TCP flow control then hold the clients back.
 */
final class FrontClients
{
    private final int resumeAtFree;
    private FrontClient first;
    private boolean paused;
    private long pauses;

    FrontClients(final int slots)
    {
        resumeAtFree = Math.max(1, slots / 4);
    }

    void add(final FrontClient client)
    {
        client.next = first;
        if (first != null)
        {
            first.previous = client;
        }
        first = client;
        if (paused)
        {
            client.connection.pauseReads();
        }
    }

    void remove(final FrontClient client)
    {
        if (client.previous == null)
        {
            first = client.next;
        }
        else
        {
            client.previous.next = client.next;
        }
        if (client.next != null)
        {
            client.next.previous = client.previous;
        }
        client.previous = client.next = null;
    }

    /** After a slot was taken: pauses every client's reads when none is left. */
    void slotTaken(final int free)
    {
        if (free == 0 && !paused)
        {
            paused = true;
            pauses++;
            for (FrontClient client = first; client != null; client = client.next)
            {
                client.connection.pauseReads();
            }
        }
    }

    /** After a slot was given back: resumes every client's reads once enough are free. */
    void slotFreed(final int free)
    {
        if (paused && free >= resumeAtFree)
        {
            paused = false;
            for (FrontClient client = first; client != null; client = client.next)
            {
                client.connection.resumeReads();
            }
        }
    }

    boolean isPaused()
    {
        return paused;
    }

    /** How many times the clients' reads were paused. */
    long pauses()
    {
        return pauses;
    }
}
