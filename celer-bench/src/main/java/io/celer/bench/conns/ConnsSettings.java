package io.celer.bench.conns;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.celer.bench.harness.PeerLauncher;

/**
 * What {@code bench conns} runs.
 *
 * @param peers                 the servers.
 * @param scenarios             what the held connections did before going idle.
 * @param connections           connections each server holds at once.
 * @param perClient             connections a client process opens at most.
 * @param perAddress            connections from one loopback source address.
 * @param roundTrips            timed round trips of the fresh client.
 * @param warmupRoundTrips      its unmeasured ones first.
 * @param size                  bytes of the WebSocket message.
 * @param rounds                runs of each server in each scenario.
 * @param heapClasses           classes to list whose live objects grew the most per connection; 0 for none.
 * @param launcher              starts the processes.
 * @param outDir                where the result files go.
 */
record ConnsSettings(List<ConnsPeer> peers, List<Scenario> scenarios, int connections, int perClient,
    int perAddress, int roundTrips, int warmupRoundTrips, int size, int rounds, int heapClasses, PeerLauncher launcher,
    Path outDir)
{
    /**
     * The runs: every scenario of every server, scenario by scenario.
     *
     * @return the contenders.
     */
    List<Contender> contenders()
    {
        final List<Contender> all = new ArrayList<>();
        for (final Scenario scenario : scenarios)
        {
            for (final ConnsPeer peer : peers)
            {
                all.add(new Contender(peer, scenario));
            }
        }
        return all;
    }

    /**
     * Client processes a run needs.
     *
     * @return the connections over what one process may hold, rounded up.
     */
    int clientProcesses()
    {
        return (connections + perClient - 1) / perClient;
    }

    /**
     * Source addresses a run uses.
     *
     * @return the connections over what one address takes, rounded up.
     */
    int sourceAddresses()
    {
        return (connections + perAddress - 1) / perAddress;
    }

    /**
     * One server in one scenario.
     *
     * @param peer     the server.
     * @param scenario what its held connections did.
     */
    record Contender(ConnsPeer peer, Scenario scenario)
    {
        /** @return such as {@code celer http}. */
        String id()
        {
            return peer.id() + " " + scenario.id();
        }
    }
}
