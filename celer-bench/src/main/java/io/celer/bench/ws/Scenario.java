package io.celer.bench.ws;

/**
 * What a run's clients and server do: with slow clients and back-pressure on or off, or with no slow client.
 */
enum Scenario
{
    /** A tenth of the clients slow, the server dropping what they cannot take. */
    BACKPRESSURE("bp-on"),
    /** A tenth of the clients slow, the server queueing without bound until the RSS cap. */
    NO_BACKPRESSURE("bp-off"),
    /** Every client fast, back-pressure on: the latency to compare with. */
    NO_SLOW("no-slow");

    private final String id;

    Scenario(final String id)
    {
        this.id = id;
    }

    /** @return its name in the results. */
    String id()
    {
        return id;
    }

    /** @return whether some clients read slowly: in every scenario but {@link #NO_SLOW}. */
    boolean slowClients()
    {
        return this != NO_SLOW;
    }

    /**
     * @return whether the server drops for a client that cannot keep up: in every scenario but
     *         {@link #NO_BACKPRESSURE}.
     */
    boolean backpressure()
    {
        return this != NO_BACKPRESSURE;
    }
}
