package io.celer.examples.quote;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.examples.Demo;
import io.celer.examples.cli.Running;
import io.celer.examples.support.DemoRuns;
import io.celer.examples.support.Loopback;
import io.celer.test.SteadyAllocation;

/**
 * The {@code http-quote} front, started as the command line starts it before an {@code http-quote-backend},
 * allocates nothing on its reactor thread per request once warm: parsing the client's request, forwarding it
 * over the pooled back-end connection, matching the answer and writing the client's response. The client is a
 * blocking socket on the test thread, whose allocations do not count.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class QuoteZeroGarbageTest
{
    // Until the JIT has compiled the whole path, interpreted code allocates what compiled code keeps in registers.
    private static final int WARMUP = 100_000;
    private static final int MEASURED = 30_000;
    private static final int BATCH = 16;

    @RegisterExtension
    final DemoRuns demos = new DemoRuns(Demo::execute);

    @Test
    void forwardedRequestsAllocateNothingOnTheFrontsReactor() throws Exception
    {
        final Running backend = demos.start("http-quote-backend", "--host", Loopback.HOST, "--port", "0");
        final Running front = demos.start("http-quote", "--host", Loopback.HOST, "--port", "0", "--backends",
            Loopback.HOST + ":" + backend.port());
        final Thread reactor = DemoRuns.reactorThread("http-quote");
        final String[] batch = new String[BATCH];
        for (int i = 0; i < BATCH; i++)
        {
            batch[i] = i % 2 == 0 ? "IBM" : "BRK.B";
        }
        try (QuoteWire wire = new QuoteWire(front.port()))
        {
            exchange(wire, batch, WARMUP / BATCH);
            assertThat(SteadyAllocation.perWindow(reactor, () -> exchange(wire, batch, MEASURED / BATCH)))
                .as("bytes allocated by the front's reactor per window of %d quotes", MEASURED)
                .endsWith(0L);
        }
        assertThat(demos.stop(front)).isZero();
    }

    private static void exchange(final QuoteWire wire, final String[] batch, final int batches) throws Exception
    {
        for (int b = 0; b < batches; b++)
        {
            wire.send(batch);
            for (final String symbol : batch)
            {
                final QuoteWire.Answer answer = wire.read();
                if (answer.status() != 200 || !answer.symbol().equals(symbol))
                {
                    throw new AssertionError("asked " + symbol + ", got " + answer);
                }
            }
        }
    }
}
