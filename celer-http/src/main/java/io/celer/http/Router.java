package io.celer.http;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Routes requests by method and path, exact or by prefix, in the order routes were added; built once at
 * setup, matched on the request's bytes without allocating. No route for the path answers 404; a route for the
 * path with another method answers 405.
 */
public final class Router implements HttpHandler
{
    private final byte[][] paths;
    private final boolean[] prefix;
    private final HttpMethod[] methods;
    private final HttpHandler[] handlers;
    private final HttpHandler notFound;

    private Router(final Builder builder)
    {
        final int n = builder.routes.size();
        paths = new byte[n][];
        prefix = new boolean[n];
        methods = new HttpMethod[n];
        handlers = new HttpHandler[n];
        for (int i = 0; i < n; i++)
        {
            final Route route = builder.routes.get(i);
            paths[i] = route.path;
            prefix[i] = route.prefix;
            methods[i] = route.method;
            handlers[i] = route.handler;
        }
        notFound = builder.notFound;
    }

    /**
     * Starts a router.
     *
     * @return a builder.
     */
    public static Builder builder()
    {
        return new Builder();
    }

    @Override
    public void handle(final HttpRequest request, final HttpResponse response)
    {
        boolean pathMatched = false;
        final int start = request.base + request.pathStart;
        final int length = request.pathEnd - request.pathStart;
        for (int i = 0; i < paths.length; i++)
        {
            final byte[] path = paths[i];
            if (prefix[i] ? length >= path.length : length == path.length)
            {
                if (Ascii.equals(request.buffer, start, path))
                {
                    final HttpMethod method = methods[i];
                    if (method == null || method == request.method ||
                        (method == HttpMethod.GET && request.method == HttpMethod.HEAD))
                    {
                        handlers[i].handle(request, response);
                        return;
                    }
                    pathMatched = true;
                }
            }
        }
        if (pathMatched)
        {
            response.status(HttpStatus.METHOD_NOT_ALLOWED).end();
        }
        else
        {
            notFound.handle(request, response);
        }
    }

    private static final class Route
    {
        final HttpMethod method;
        final byte[] path;
        final boolean prefix;
        final HttpHandler handler;

        Route(final HttpMethod method, final String path, final boolean prefix, final HttpHandler handler)
        {
            if (path == null || path.isEmpty() || path.charAt(0) != '/')
            {
                throw new IllegalArgumentException("a route's path starts with '/': " + path);
            }
            if (handler == null)
            {
                throw new IllegalArgumentException("a route needs a handler: " + path);
            }
            this.method = method;
            this.path = path.getBytes(StandardCharsets.US_ASCII);
            this.prefix = prefix;
            this.handler = handler;
        }
    }

    /**
     * Collects routes; GET routes also answer HEAD.
     */
    public static final class Builder
    {
        private final List<Route> routes = new ArrayList<>();
        private HttpHandler notFound = (request, response) -> response.status(HttpStatus.NOT_FOUND).end();

        private Builder()
        {
        }

        /**
         * A route for one method and an exact path.
         *
         * @param method  the method, or null for any.
         * @param path    the path, from '/'.
         * @param handler what answers.
         * @return this.
         */
        public Builder exact(final HttpMethod method, final String path, final HttpHandler handler)
        {
            routes.add(new Route(method, path, false, handler));
            return this;
        }

        /**
         * A route for one method and every path that starts with a prefix.
         *
         * @param method  the method, or null for any.
         * @param prefix  the prefix, from '/'.
         * @param handler what answers.
         * @return this.
         */
        public Builder prefix(final HttpMethod method, final String prefix, final HttpHandler handler)
        {
            routes.add(new Route(method, prefix, true, handler));
            return this;
        }

        /**
         * {@code exact(GET, path, handler)}.
         *
         * @param path    the path.
         * @param handler what answers.
         * @return this.
         */
        public Builder get(final String path, final HttpHandler handler)
        {
            return exact(HttpMethod.GET, path, handler);
        }

        /**
         * {@code exact(POST, path, handler)}.
         *
         * @param path    the path.
         * @param handler what answers.
         * @return this.
         */
        public Builder post(final String path, final HttpHandler handler)
        {
            return exact(HttpMethod.POST, path, handler);
        }

        /**
         * What answers when no route's path matches; 404 by default.
         *
         * @param handler the fallback.
         * @return this.
         */
        public Builder notFound(final HttpHandler handler)
        {
            if (handler == null)
            {
                throw new IllegalArgumentException("notFound handler must not be null");
            }
            this.notFound = handler;
            return this;
        }

        /**
         * The router.
         *
         * @return a router with the routes added so far.
         */
        public Router build()
        {
            return new Router(this);
        }
    }
}
