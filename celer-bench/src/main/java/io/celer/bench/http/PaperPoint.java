package io.celer.bench.http;

import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * One concurrency of the paper's test on one server: what ab measured and what the server said.
 *
 * @param concurrency ab's {@code -c}.
 * @param ab          ab's figures.
 * @param server      the server's own.
 */
record PaperPoint(int concurrency, @JsonUnwrapped AbOutput ab, @JsonUnwrapped ServerFacts server)
    implements Sweep.Point
{
    @Override
    public int setting()
    {
        return concurrency;
    }

    @Override
    public double rate()
    {
        return ab.requestsPerSecond();
    }

    @Override
    public String serverJdk()
    {
        return server.jdk();
    }
}
