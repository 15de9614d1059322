package io.celer.bench.http;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * One concurrency of the paper's test on one server: what ab measured and what the server said.
 *
 * @param concurrency ab's {@code -c}.
 * @param ab          ab's figures.
 * @param abCpu       ab's share of its core, percent; near 100, ab rather than the server set the rate.
 * @param abCpuPerRequest ab's CPU time, user and kernel, per request, in microseconds.
 * @param server      the server's own.
 */
record PaperPoint(int concurrency, @JsonUnwrapped AbOutput ab, @JsonProperty("ab_cpu_percent") Double abCpu,
    @JsonProperty("ab_cpu_us_per_request") Double abCpuPerRequest,
    @JsonUnwrapped ServerFacts server)
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

    @Override
    public Double serverCpuPerRequest()
    {
        return server.cpuMicrosPerRequest();
    }
}
