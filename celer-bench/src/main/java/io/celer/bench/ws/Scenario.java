package io.celer.bench.ws;

/**
 * What a run's clients and server do: with slow clients and back-pressure on or off, or with no slow client.
 */
enum Scenario
{
    /** A tenth of the clients slow, the server dropping what they cannot take. */
    BACKPRESSURE("bp-on", true, true),
    /** A tenth of the clients slow, the server queueing without bound until the RSS cap. */
    NO_BACKPRESSURE("bp-off", true, false),
    /** Every client fast, back-pressure on: the latency to compare with. */
    NO_SLOW("no-slow", false, true);

    private final String id;
    private final boolean slowClients;
    private final boolean backpressure;

    Scenario(final String id, final boolean slowClients, final boolean backpressure)
    {
        this.id = id;
        this.slowClients = slowClients;
        this.backpressure = backpressure;
    }

    /** @return its name in the results. */
    String id()
    {
        return id;
    }

    /** @return whether some clients read slowly. */
    boolean slowClients()
    {
        return slowClients;
    }

    /** @return whether the server drops for a client that cannot keep up. */
    boolean backpressure()
    {
        return backpressure;
    }
}
