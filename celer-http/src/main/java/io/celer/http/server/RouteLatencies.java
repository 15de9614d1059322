package io.celer.http.server;

import java.util.IdentityHashMap;
import java.util.Map;

import io.celer.counters.CounterScope;
import io.celer.counters.LatencyHistogram;

/**
 * The latency histograms of one reactor's HTTP routes, {@code http.route.latency} tagged with each route's
 * method and path ({@code route=GET /quote}); {@code route=unmatched} for requests a {@link Router} matched to no
 * route, {@code route=all} for those of a server whose handler is not a router. Bounded: routes are fixed when
 * a router is built. Made and read on the reactor's thread.
 */
final class RouteLatencies
{
    private static final String NAME = "http.route.latency";

    private final CounterScope scope;
    private final Map<Router, LatencyHistogram[]> byRouter = new IdentityHashMap<>();
    private final LatencyHistogram unmatched;
    private final LatencyHistogram unrouted;

    private RouteLatencies(final CounterScope scope)
    {
        this.scope = scope;
        this.unmatched = scope.histogram(NAME, "route=unmatched");
        this.unrouted = scope.histogram(NAME, "route=all");
    }

    /** The route histograms of a reactor's HTTP servers. */
    static RouteLatencies of(final CounterScope scope)
    {
        return scope.group(RouteLatencies.class, RouteLatencies::new);
    }

    /** The histograms of a router's routes, made on its first request on this reactor. */
    LatencyHistogram[] of(final Router router)
    {
        LatencyHistogram[] histograms = byRouter.get(router);
        if (histograms == null)
        {
            histograms = new LatencyHistogram[router.routeCount()];
            for (int i = 0; i < histograms.length; i++)
            {
                histograms[i] = scope.histogram(NAME, "route=" + router.routeName(i));
            }
            byRouter.put(router, histograms);
        }
        return histograms;
    }

    LatencyHistogram unmatched()
    {
        return unmatched;
    }

    LatencyHistogram unrouted()
    {
        return unrouted;
    }
}
