package io.celer.http.server;

import io.celer.counters.BatchedTotal;
import io.celer.counters.Counter;
import io.celer.counters.CounterScope;
import io.celer.http.HttpStatus;

/**
 * The HTTP server counters of one reactor, shared by its servers' connections; written on its thread, the
 * responses batched (written when the reactor flushes its counters).
 */
final class HttpCounters
{
    /** The rejections counted each on their own; any other status falls under "other". */
    private static final int[] REJECTIONS = {
        HttpStatus.BAD_REQUEST, HttpStatus.REQUEST_TIMEOUT, HttpStatus.CONTENT_TOO_LARGE, HttpStatus.URI_TOO_LONG,
        HttpStatus.HEADER_FIELDS_TOO_LARGE, HttpStatus.NOT_IMPLEMENTED};

    private final BatchedTotal[] responses = new BatchedTotal[6];
    private final Counter[] rejections = new Counter[REJECTIONS.length + 1];
    final Counter pipelineDepthMax;

    HttpCounters(final CounterScope scope)
    {
        for (int i = 1; i <= 5; i++)
        {
            responses[i] = scope.batchedTotal("http.responses", "class=" + i + "xx");
        }
        for (int i = 0; i < REJECTIONS.length; i++)
        {
            rejections[i] = scope.total("http.rejections", "status=" + REJECTIONS[i]);
        }
        rejections[REJECTIONS.length] = scope.total("http.rejections", "status=other");
        pipelineDepthMax = scope.gauge("http.pipeline.depth.max", "");
    }

    /** The counters of a reactor's HTTP servers. */
    static HttpCounters of(final CounterScope scope)
    {
        return scope.group(HttpCounters.class, HttpCounters::new);
    }

    void response(final int status)
    {
        final int statusClass = status / 100;
        if (statusClass >= 1 && statusClass <= 5)
        {
            responses[statusClass].increment();
        }
    }

    void rejection(final int status)
    {
        int i = 0;
        while (i < REJECTIONS.length && REJECTIONS[i] != status)
        {
            i++;
        }
        rejections[i].increment();
    }
}
