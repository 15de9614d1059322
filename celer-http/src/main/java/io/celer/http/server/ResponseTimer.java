package io.celer.http.server;

import io.celer.counters.Counters;
import io.celer.counters.LatencyHistogram;
import io.celer.reactor.Reactor;
import io.celer.reactor.internal.CycleTask;
import io.celer.tcp.Connection;

/**
 * Times the responses of one connection into their routes' latency histograms: from the read that brought a
 * request's last byte to the moment the socket has taken every byte written so far, this response's last
 * included. A response retired with its bytes still in the connection's buffer waits here until the
 * connection flushes (at the end of the read that answered it, or of the cycle) with nothing left over, or
 * until the socket drains after lagging.
 *
 * <p>Pipelined responses that go out in one write all end at that write. A response whose connection closes
 * before the socket takes its bytes is not counted. Garbage-free and small, as every connection has one: pending
 * responses are kept as runs of the same route and read (a pipelined batch is one run) in a ring of
 * {@value #RING}; should it fill (responses of many routes or reads behind a lagging socket), the oldest run is
 * counted at once. Lent with its {@link ResponseOutput}: it times the connection the output serves.
 */
final class ResponseTimer implements CycleTask
{
    private static final int RING = 4;

    private final Reactor reactor;
    private final ResponseOutput output;
    private final RouteLatencies latencies;
    private Connection connection;
    /** Told at the end of a cycle that settled, so that it may give the output back. */
    private ResponsePipeline pipeline;
    /**
     * The ring of pending runs, made only when a second run is pending (responses of several routes or reads at
     * once): until then the one run lives in the {@code solo} fields, so an idle connection holds no arrays.
     */
    private long[] readNanos;
    private LatencyHistogram[] histograms;
    private int[] runs;
    private long soloNanos;
    private LatencyHistogram soloHistogram;
    private int soloRuns;
    private int first;
    private int count;
    private Router lastRouter;
    private LatencyHistogram[] lastRoutes;
    private boolean queued;
    /** Set while the connection reads: the read's end settles what it answered. */
    boolean inRead;

    ResponseTimer(final Reactor reactor, final ResponseOutput output)
    {
        this.reactor = reactor;
        this.output = output;
        this.latencies = RouteLatencies.of(reactor.counters());
    }

    void bind(final Connection connection, final ResponsePipeline pipeline)
    {
        this.connection = connection;
        this.pipeline = pipeline;
        inRead = false;
    }

    /** Whether no response waits to be timed and no end of cycle is due. */
    boolean isIdle()
    {
        return count == 0 && !queued;
    }

    /**
     * Settles at the end of this cycle: a response was answered outside a read (a callback, a timer), and the
     * connection flushes then.
     */
    void settleAtEndOfCycle()
    {
        if (!queued)
        {
            queued = true;
            reactor.internals().runAtEndOfCycle(this);
        }
    }

    /** A response is retired: every byte of it is in the connection's buffer or the pipeline's backlog. */
    void retired(final HttpResponse response)
    {
        if (!Counters.enabled() || response.readNanos == HttpResponse.UNTIMED)
        {
            return;
        }
        final LatencyHistogram histogram = histogramOf(response);
        if (readNanos == null)
        {
            if (count == 0)
            {
                soloNanos = response.readNanos;
                soloHistogram = histogram;
                soloRuns = 1;
                count = 1;
            }
            else if (soloHistogram == histogram && soloNanos == response.readNanos)
            {
                soloRuns++;
            }
            else
            {
                makeRing();
                append(histogram, response.readNanos);
            }
        }
        else
        {
            final int last = (first + count - 1) & (RING - 1);
            if (count > 0 && histograms[last] == histogram && readNanos[last] == response.readNanos)
            {
                runs[last]++;
            }
            else
            {
                append(histogram, response.readNanos);
            }
        }
        if (!inRead)
        {
            settleAtEndOfCycle();
        }
    }

    private void append(final LatencyHistogram histogram, final long nanos)
    {
        if (count == RING)
        {
            recordFirst(System.nanoTime());
        }
        final int at = (first + count) & (RING - 1);
        readNanos[at] = nanos;
        histograms[at] = histogram;
        runs[at] = 1;
        count++;
    }

    /** A second run is pending: the ring is made, the solo run its first entry; kept from then on. */
    private void makeRing()
    {
        readNanos = new long[RING];
        histograms = new LatencyHistogram[RING];
        runs = new int[RING];
        first = 0;
        readNanos[0] = soloNanos;
        histograms[0] = soloHistogram;
        runs[0] = soloRuns;
        soloHistogram = null;
    }

    private LatencyHistogram histogramOf(final HttpResponse response)
    {
        final Router router = response.router;
        if (router == null)
        {
            return latencies.unrouted();
        }
        if (response.route == HttpResponse.UNMATCHED)
        {
            return latencies.unmatched();
        }
        if (router != lastRouter)
        {
            lastRoutes = latencies.of(router);
            lastRouter = router;
        }
        return lastRoutes[response.route];
    }

    /**
     * Flushes what waits, as the connection would next, and counts the pending responses if the socket took
     * everything.
     */
    void settle()
    {
        if (count == 0)
        {
            return;
        }
        if (!connection.isOpen())
        {
            clear();
            return;
        }
        connection.flush();
        if (connection.isLagging() || output.hasBacklog())
        {
            return; // writable() settles once the socket drains
        }
        final long now = System.nanoTime();
        while (count > 0)
        {
            recordFirst(now);
        }
    }

    private void recordFirst(final long now)
    {
        final boolean solo = readNanos == null;
        final LatencyHistogram histogram = solo ? soloHistogram : histograms[first];
        final long nanos = now - (solo ? soloNanos : readNanos[first]);
        for (int i = solo ? soloRuns : runs[first]; i > 0; i--)
        {
            histogram.record(nanos);
        }
        drop();
    }

    @Override
    public void endOfCycle()
    {
        queued = false;
        settle();
        if (pipeline != null)
        {
            pipeline.giveBackIfIdle();
        }
    }

    /** The connection closed or changed protocol: what is pending is not counted. */
    void clear()
    {
        while (count > 0)
        {
            drop();
        }
    }

    private void drop()
    {
        if (readNanos == null)
        {
            soloHistogram = null;
        }
        else
        {
            histograms[first] = null;
            first = (first + 1) & (RING - 1);
        }
        count--;
    }
}
