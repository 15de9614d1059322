package io.celer.bench.conns;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One server in one scenario, one round: what its held connections cost and how it answered beside them; the
 * JSON entry of the report.
 *
 * @param peer            the server.
 * @param scenario        what the held connections did.
 * @param description     the server, in a few words.
 * @param round           the round this is, from 1.
 * @param roundsRun       the rounds of this server and scenario that completed.
 * @param connections     connections asked for.
 * @param opened          connections opened.
 * @param answered        connections whose first answer was read and right.
 * @param stillOpen       connections found open after the memory was measured and the fresh client timed.
 * @param heldSeconds     how long the connections had been held then, the oldest at most: a server that closes
 *                        connections idle for longer (Celer's HTTP server after 60 s by default) or pings them
 *                        (Celer's WebSocket sessions after 30 s) would have done so within this.
 * @param clientProcesses processes that held them.
 * @param sourceAddresses loopback addresses they came from.
 * @param openSeconds     the time to open them all, one after another.
 * @param perConnection   the growth over the connections, per connection.
 * @param server          the server's memory before and with the connections.
 * @param kernel          the machine's TCP memory before and with the connections.
 * @param freshClient     the fresh client's round trips before and with the connections.
 * @param extrapolated    the resident set's growth at more connections.
 * @param loopConnectionsPercent each of the server's reactors' share of the connections, in their order; null on
 *                        one reactor or where the server does not say.
 * @param heapClasses     the classes whose live objects grew the most per connection, largest first; empty unless
 *                        asked for.
 */
record ConnsPoint(
    String peer,
    String scenario,
    String description,
    int round,
    int roundsRun,
    int connections,
    long opened,
    long answered,
    long stillOpen,
    @JsonProperty("held_s") double heldSeconds,
    int clientProcesses,
    int sourceAddresses,
    @JsonProperty("open_s") double openSeconds,
    PerConnection perConnection,
    Server server,
    Kernel kernel,
    Fresh freshClient,
    List<Extrapolated> extrapolated,
    @JsonProperty("server_loop_connections_percent") List<Double> loopConnectionsPercent,
    List<ClassGrowth> heapClasses)
{
    /** The connection counts the resident set's growth is extrapolated to. */
    static final List<Integer> EXTRAPOLATED_TO = List.of(100_000, 1_000_000);

    /**
     * Growth per connection, in bytes: the after figure less the before one, over the connections.
     *
     * @param rssBytes          the server's resident set.
     * @param heapBytes         its heap in use after full collections.
     * @param directBytes       its direct buffers.
     * @param kernelBufferBytes TCP buffer pages, machine-wide: both ends of each loopback connection.
     * @param kernelSlabBytes   the kernel's slab memory, machine-wide: both ends' socket structures and anything
     *                          else the machine did meanwhile.
     */
    record PerConnection(double rssBytes, double heapBytes, double directBytes, double kernelBufferBytes,
        double kernelSlabBytes)
    {
    }

    /**
     * The server's memory.
     *
     * @param before after the fresh client's first run, before the connections.
     * @param after  with the connections held.
     */
    record Server(ServerMemory before, ServerMemory after)
    {
    }

    /**
     * The kernel's TCP memory.
     *
     * @param before before the connections.
     * @param after  with the connections held, before the server's collections.
     */
    record Kernel(KernelMemory before, KernelMemory after)
    {
    }

    /**
     * The fresh client's round trips.
     *
     * @param idle   before the connections.
     * @param loaded with them held.
     */
    record Fresh(RoundTrips idle, RoundTrips loaded)
    {
    }

    /**
     * The resident set's growth at a connection count.
     *
     * @param connections the count.
     * @param rssBytes    the growth per connection times the count.
     */
    record Extrapolated(int connections, double rssBytes)
    {
    }

    /**
     * A point from what was measured.
     *
     * @param contender       the server and scenario.
     * @param round           the round.
     * @param connections     connections held.
     * @param held            the holders' counts.
     * @param stillOpen       connections open after the measure.
     * @param heldSeconds     how long they had been held then.
     * @param settings        the run's settings.
     * @param server          the server's memory.
     * @param kernel          the kernel's.
     * @param freshClient     the round trips.
     * @param spread          each reactor's share of the connections, or null.
     * @param heapClasses     the classes that grew the most, or none.
     * @return the point.
     */
    static ConnsPoint of(final ConnsSettings.Contender contender, final int round, final int connections,
        final HeldConnections held, final long stillOpen, final double heldSeconds, final ConnsSettings settings,
        final Server server, final Kernel kernel, final Fresh freshClient, final List<Double> spread,
        final List<ClassGrowth> heapClasses)
    {
        final double n = connections;
        final PerConnection per = new PerConnection(
            (server.after().rssBytes() - server.before().rssBytes()) / n,
            (server.after().heapBytes() - server.before().heapBytes()) / n,
            (server.after().directBytes() - server.before().directBytes()) / n,
            (kernel.after().tcpBufferBytes() - kernel.before().tcpBufferBytes()) / n,
            (kernel.after().slabBytes() - kernel.before().slabBytes()) / n);
        final List<Extrapolated> extrapolated = new ArrayList<>();
        for (final int count : EXTRAPOLATED_TO)
        {
            extrapolated.add(new Extrapolated(count, per.rssBytes() * count));
        }
        return new ConnsPoint(contender.peer().id(), contender.scenario().id(), contender.peer().description(),
            round, 1, connections, held.opened(), held.answered(), stillOpen, heldSeconds, settings.clientProcesses(),
            settings.sourceAddresses(), held.openNanos() / 1e9, per, server, kernel, freshClient,
            List.copyOf(extrapolated), spread, heapClasses);
    }

    /**
     * The same point, saying how many rounds completed.
     *
     * @param rounds the count.
     * @return the point.
     */
    ConnsPoint withRoundsRun(final int rounds)
    {
        return new ConnsPoint(peer, scenario, description, round, rounds, connections, opened, answered, stillOpen,
            heldSeconds, clientProcesses, sourceAddresses, openSeconds, perConnection, server, kernel, freshClient,
            extrapolated, loopConnectionsPercent, heapClasses);
    }
}
