package io.celer.bench.conns;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

import io.celer.bench.harness.BenchException;
import io.celer.bench.harness.CommandedChild;
import io.celer.bench.harness.FixedPeer;
import io.celer.bench.harness.PeerLauncher;

/**
 * The held connections of one run, in as many {@link IdleHolder} processes as the open-file limit needs, started
 * one after another on the client's CPU so that each opens its share alone. Closing resets every connection and
 * ends the processes, whatever happened before.
 */
final class HeldConnections implements AutoCloseable
{
    private static final FixedPeer CLIENT = new FixedPeer("conns-client", "blocking NIO sockets", false, null);
    /** Time for a JVM to start, on top of {@link #PER_CONNECTION}. */
    private static final Duration START = Duration.ofSeconds(60);
    /** A connection's bound: far above what one takes on loopback (tens of microseconds), for a loaded machine. */
    private static final Duration PER_CONNECTION = Duration.ofMillis(5);
    private static final Duration ANSWER = Duration.ofSeconds(60);
    private static final Duration EXIT = Duration.ofSeconds(30);

    private final List<CommandedChild> holders = new ArrayList<>();
    private final long startNanos = System.nanoTime();
    private long opened;
    private long answered;
    private long openNanos;

    private HeldConnections()
    {
    }

    /**
     * Opens the run's connections.
     *
     * @param settings how many, from how many processes and addresses.
     * @param scenario what each does before going idle.
     * @param port     the server's port.
     * @param progress takes the connections opened so far.
     * @return the held connections.
     * @throws BenchException if a connection fails or a process does not finish in time; those opened are closed.
     */
    static HeldConnections open(final ConnsSettings settings, final Scenario scenario, final int port,
        final LongConsumer progress)
    {
        final HeldConnections held = new HeldConnections();
        try
        {
            final PeerLauncher launcher = settings.launcher();
            for (int first = 0; first < settings.connections(); first += settings.perClient())
            {
                final int count = Math.min(settings.perClient(), settings.connections() - first);
                final Map<String, Object> args = new LinkedHashMap<>();
                args.put("port", port);
                args.put("scenario", scenario.id());
                args.put("first", first);
                args.put("count", count);
                args.put("per-address", settings.perAddress());
                args.put("size", settings.size());
                final CommandedChild holder = CommandedChild.start("client " + (held.holders.size() + 1),
                    launcher.java(CLIENT, IdleHolder.class.getName(), launcher.cpus().clientCpu(), args));
                held.holders.add(holder);
                final long before = held.opened;
                final KeyValues done = KeyValues.of(holder.awaitLine("'held' line", line ->
                {
                    if (line.startsWith("opened "))
                    {
                        progress.accept(before + Long.parseLong(line.substring("opened ".length()).trim()));
                    }
                    return line.startsWith("held ");
                }, START.plus(PER_CONNECTION.multipliedBy(count))));
                held.opened += done.number("opened");
                held.answered += done.number("answered");
                held.openNanos += done.number("nanos");
                progress.accept(held.opened);
            }
            return held;
        }
        catch (final RuntimeException ex)
        {
            held.close();
            throw ex;
        }
    }

    /** @return connections opened. */
    long opened()
    {
        return opened;
    }

    /** @return connections whose first answer was read and right. */
    long answered()
    {
        return answered;
    }

    /** @return the processes' opening times added up: each opened its share alone. */
    long openNanos()
    {
        return openNanos;
    }

    /** @return seconds since the first process started: the oldest connection is younger. */
    double ageSeconds()
    {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    /**
     * Reads every connection without waiting, in every process.
     *
     * @return the connections still open, the server having closed none.
     */
    long stillOpen()
    {
        long open = 0;
        for (final CommandedChild holder : holders)
        {
            holder.send("check");
            open += KeyValues.of(holder.awaitLine("'alive' line", line -> line.startsWith("alive "), ANSWER))
                .number("open");
        }
        return open;
    }

    /** Resets every connection and ends the processes; those that do not end in time are killed. */
    @Override
    public void close()
    {
        for (final CommandedChild holder : holders)
        {
            try
            {
                holder.send("close");
            }
            catch (final BenchException ex)
            {
                // Gone already: nothing of it to close.
            }
        }
        for (final CommandedChild holder : holders)
        {
            holder.waitFor(EXIT);
            holder.close();
        }
        holders.clear();
    }
}
