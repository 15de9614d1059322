package io.celer.http.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
/**
 * A pipelining flood is served a bounded number of requests per reactor cycle, so the other connections get
 * the reactor in between; and the requests it left buffered are all served, in order, without another byte
 * from the peer.
 */
class FairnessTest
{
    private static final int BUDGET = 8;
    @AutoClose
    private TestServer server;

    /**
     * Counts requests between two callback phases of the reactor: a callback queued by the first request counted
     * runs in the next callback phase and starts a new count. Such a window spans the end of one cycle and the
     * I/O of the next, so it may hold two batches: one delivered again after a pause, one freshly read. (An
     * end-of-cycle task would not do: work queued while end-of-cycle tasks run joins the same pass.)
     */
    private static final class PerCycle implements Runnable
    {
        int inThisCycle;
        int most;
        int total;
        boolean queued;

        @Override
        public void run()
        {
            queued = false;
            inThisCycle = 0;
        }
    }

    @Test
    void aFloodIsServedABoundedNumberOfRequestsPerCycle() throws Exception
    {
        final PerCycle counts = new PerCycle();
        server = new TestServer(new HttpServerConfig().maxRequestsPerRead(BUDGET), (req, res) ->
        {
            if (!counts.queued)
            {
                counts.queued = res.connection().reactor().callAsync(counts);
            }
            counts.inThisCycle++;
            counts.total++;
            counts.most = Math.max(counts.most, counts.inThisCycle);
            res.body(req.path());
        });
        final int requests = 3_000;
        try (RawClient client = new RawClient(server.port()))
        {
            final StringBuilder flood = new StringBuilder();
            for (int i = 0; i < requests; i++)
            {
                flood.append("GET /").append(i).append(" HTTP/1.1\r\nHost: x\r\n\r\n");
            }
            client.send(flood.toString());
            for (int i = 0; i < requests; i++)
            {
                assertThat(client.read().bodyText()).isEqualTo("/" + i);
            }
        }
        final int[] seen = new int[2];
        server.reactor.call(() ->
        {
            seen[0] = counts.total;
            seen[1] = counts.most;
        });
        assertThat(seen[0]).isEqualTo(requests);
        assertThat(seen[1]).as("most requests served to one connection between two callback phases")
            .isBetween(1, 2 * BUDGET);
    }
}
