package io.celer.bench.ws.peer;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import io.celer.bench.peer.server.LoopProbe;

/**
 * The clients of {@code /feed} and what each is due: on every tick of the event loop's timer, each client gets
 * the messages its rate owes it since it joined, or, with back-pressure on, those it cannot take are dropped
 * and counted; a dropped message's sequence number is skipped, so the client sees the gap. A tick makes at most a
 * tenth of a second's messages per client, as Celer's feed does: a loop that fell behind catches up in steps, so
 * its turns stay short enough for the harness's tasks to run, and what it owes stays owed.
 *
 * <p>Confined to one event loop, a feed per loop; the counts are published for the per-second report thread.
 */
public final class Feed
{
    private static final double NANOS_PER_SECOND = 1e9;

    private final ArrayList<Client> clients = new ArrayList<>();
    private final ArrayList<Object> leaving = new ArrayList<>();
    private final byte[] text;
    private final double ratePerNano;
    private final double nanosPerMessage;
    private final int size;
    private final long maxPerTick;
    private final boolean dropWhenUnwritable;
    private final AtomicLong publishedSent = new AtomicLong();
    private final AtomicLong publishedDropped = new AtomicLong();
    private final AtomicLong publishedClients = new AtomicLong();
    private long sent;
    private long dropped;
    private long droppedAtMark;
    private long peakClients;
    private boolean ticking;

    /**
     * Where a client's messages go.
     */
    public interface Sink
    {
        /**
         * Whether the connection is still open; a closed one is skipped until its close is handled.
         *
         * @return true while open.
         */
        boolean open();

        /**
         * Whether the connection takes more without queueing in the server.
         *
         * @return true while writable.
         */
        boolean writable();

        /**
         * Writes one text message, without flushing.
         *
         * @param ascii  the text's bytes, reused after the call.
         * @param length how many.
         */
        void send(byte[] ascii, int length);

        /**
         * Flushes what the tick wrote.
         */
        void flush();
    }

    /**
     * A feed.
     *
     * @param options its rate, size and back-pressure.
     */
    public Feed(final FeedOptions options)
    {
        this.ratePerNano = options.rate / NANOS_PER_SECOND;
        this.nanosPerMessage = NANOS_PER_SECOND / options.rate;
        this.size = options.size;
        this.maxPerTick = Math.max(1, options.rate / 10);
        this.dropWhenUnwritable = options.dropWhenUnwritable();
        this.text = new byte[Math.max(options.size, FeedMessage.MAX_HEADER)];
    }

    /**
     * Adds a client; its messages are due from now.
     *
     * @param sink where they go.
     * @return its handle, to remove it.
     */
    public Object add(final Sink sink)
    {
        final Client client = new Client(sink, System.nanoTime());
        clients.add(client);
        peakClients = Math.max(peakClients, clients.size());
        publishedClients.lazySet(clients.size());
        return client;
    }

    /**
     * Removes a client.
     *
     * @param handle what {@link #add} returned.
     */
    public void remove(final Object handle)
    {
        if (ticking)
        {
            // A write in the tick closed the connection: leave the list alone until the tick ends.
            ((Client)handle).gone = true;
            leaving.add(handle);
            return;
        }
        clients.remove(handle);
        publishedClients.lazySet(clients.size());
    }

    /**
     * Sends every client what is due.
     */
    public void tick()
    {
        ticking = true;
        try
        {
            for (int i = 0; i < clients.size(); i++)
            {
                final Client client = clients.get(i);
                if (!client.gone)
                {
                    sendDue(client);
                }
            }
        }
        finally
        {
            ticking = false;
            for (int i = 0; i < leaving.size(); i++)
            {
                remove(leaving.get(i));
            }
            leaving.clear();
            publishedSent.lazySet(sent);
            publishedDropped.lazySet(dropped);
        }
    }

    private void sendDue(final Client client)
    {
        final long now = System.nanoTime();
        final long due = Math.min((long)((now - client.since) * ratePerNano), client.next + maxPerTick);
        if (due <= client.next || !client.sink.open())
        {
            return;
        }
        while (client.next < due && !client.gone)
        {
            if (dropWhenUnwritable && !client.sink.writable())
            {
                dropped++;
            }
            else
            {
                // Message n falls due once the rate owes n + 1 messages; never after now, whatever the rounding.
                final long dueNanos = Math.min(now, client.since + (long)((client.next + 1) * nanosPerMessage));
                client.sink.send(text, FeedMessage.write(text, client.next, System.nanoTime(), dueNanos, size));
                sent++;
            }
            client.next++;
        }
        client.sink.flush();
    }

    /**
     * Messages sent so far, on the loop.
     *
     * @return the count.
     */
    public long sent()
    {
        return sent;
    }

    /**
     * Clients on the feed, from any thread.
     *
     * @return the count, as the loop last published it.
     */
    public long clients()
    {
        return publishedClients.get();
    }

    /**
     * Marks the start of a measure, on the loop.
     */
    public void mark()
    {
        droppedAtMark = dropped;
        peakClients = clients.size();
    }

    /**
     * This feed's loop as a server's probe reads it: messages sent, and since the mark, those dropped, the
     * clients at the end and the most at once.
     *
     * @param loop runs tasks on the feed's event loop.
     * @return the probe's loop.
     */
    public LoopProbe.Loop probed(final Executor loop)
    {
        return new LoopProbe.Loop(loop, this::sent).onBegin(this::mark)
            .count("dropped", () -> dropped - droppedAtMark)
            .count("clients", clients::size)
            .count("peak_clients", () -> peakClients);
    }

    /**
     * Starts what watches a feed server once it listens: the process sampler and, with {@code --per-second}, a
     * daemon thread printing each second's counts while clients are connected.
     *
     * @param options the server's feed options.
     * @param feeds   the feed of each of its loops.
     */
    public static void watch(final FeedOptions options, final List<Feed> feeds)
    {
        ProcessSampler.start(options, () -> total(feeds, feed -> feed.publishedClients));
        if (!options.perSecond)
        {
            return;
        }
        final Thread reporter = new Thread(() ->
        {
            long lastSent = 0;
            long lastDropped = 0;
            for (long second = 1; ; second++)
            {
                try
                {
                    Thread.sleep(1000);
                }
                catch (final InterruptedException ex)
                {
                    return;
                }
                final long nowSent = total(feeds, feed -> feed.publishedSent);
                final long nowDropped = total(feeds, feed -> feed.publishedDropped);
                final long connected = total(feeds, feed -> feed.publishedClients);
                if (connected > 0 || nowSent != lastSent || nowDropped != lastDropped)
                {
                    System.out.println("feed second=" + second + " clients=" + connected + " sent=" +
                        (nowSent - lastSent) + " dropped=" + (nowDropped - lastDropped));
                    System.out.flush();
                }
                lastSent = nowSent;
                lastDropped = nowDropped;
            }
        }, "feed-report");
        reporter.setDaemon(true);
        reporter.start();
    }

    private static long total(final List<Feed> feeds, final Function<Feed, AtomicLong> count)
    {
        long total = 0;
        for (final Feed feed : feeds)
        {
            total += count.apply(feed).get();
        }
        return total;
    }

    private static final class Client
    {
        final Sink sink;
        final long since;
        long next;
        boolean gone;

        Client(final Sink sink, final long since)
        {
            this.sink = sink;
            this.since = since;
        }
    }
}
