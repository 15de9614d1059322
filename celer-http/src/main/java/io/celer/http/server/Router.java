package io.celer.http.server;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import io.celer.http.HttpMethod;
import io.celer.http.HttpStatus;
import io.celer.http.internal.Ascii;

/**
 * Routes requests by method and path, exact or by prefix, in the order routes were added; built once at
 * setup, matched on the request's bytes without allocating; a percent-encoded unreserved character matches
 * the character itself, and escapes match in either case (RFC 3986, 6.2.2). No route for the path answers
 * 404; routes for the path with other methods answer 405 with an {@code Allow} field naming theirs (RFC 9110,
 * 15.5.6), or, to an {@code OPTIONS} request no route takes, 200 with that {@code Allow}; {@code OPTIONS *} is
 * answered with every method the routes name.
 */
public final class Router implements HttpHandler
{
    private static final HttpMethod[] NAMED = HttpMethod.values();
    private static final int OPTIONS_BIT = bit(HttpMethod.OPTIONS);

    private final byte[][] paths;
    private final boolean[] prefix;
    private final HttpMethod[] methods;
    private final HttpHandler[] handlers;
    /** Each route's method and path pattern, the label of its latency histogram. */
    private final String[] names;
    private final HttpHandler notFound;
    private final int serverAllow;
    // The Allow values by set of methods, made the first time a set is answered; racing threads make equal ones.
    private final String[] allowValues = new String[1 << NAMED.length];

    private Router(final Builder builder)
    {
        final int n = builder.routes.size();
        paths = new byte[n][];
        prefix = new boolean[n];
        methods = new HttpMethod[n];
        handlers = new HttpHandler[n];
        names = new String[n];
        for (int i = 0; i < n; i++)
        {
            final Route route = builder.routes.get(i);
            names[i] = route.name;
            paths[i] = route.path;
            prefix[i] = route.prefix;
            methods[i] = route.method;
            handlers[i] = route.handler;
        }
        notFound = builder.notFound;
        int all = OPTIONS_BIT;
        for (final HttpMethod method : methods)
        {
            all |= allowBits(method);
        }
        serverAllow = all;
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
        int allowed = 0;
        final ByteBuffer buffer = request.head.buffer();
        final int start = request.head.base() + request.pathStart;
        final int length = request.pathEnd - request.pathStart;
        final boolean encoded = request.targetEncoded;
        for (int i = 0; i < paths.length; i++)
        {
            final byte[] path = paths[i];
            if (encoded ? matches(buffer, start, length, i) :
                (prefix[i] ? length >= path.length : length == path.length) &&
                    Ascii.equals(buffer, start, path))
            {
                final HttpMethod method = methods[i];
                if (method == null || method == request.method ||
                    (method == HttpMethod.GET && request.method == HttpMethod.HEAD))
                {
                    response.routed(this, i);
                    request.routed = handlers[i];
                    handlers[i].handle(request, response);
                    return;
                }
                pathMatched = true;
                allowed |= allowBits(method);
            }
        }
        response.routed(this, HttpResponse.UNMATCHED);
        if (request.method == HttpMethod.OPTIONS && length == 1 && buffer.get(start) == '*')
        {
            response.header("Allow", allowValue(serverAllow)).end();
        }
        else if (!pathMatched)
        {
            notFound.handle(request, response);
        }
        else if (request.method == HttpMethod.OPTIONS)
        {
            response.header("Allow", allowValue(allowed | OPTIONS_BIT)).end();
        }
        else
        {
            response.status(HttpStatus.METHOD_NOT_ALLOWED).header("Allow", allowValue(allowed)).end();
        }
    }

    /** A route's name, for its latency histogram; read at setup and on first use per reactor. */
    String routeName(final int route)
    {
        return names[route];
    }

    /** The number of routes. */
    int routeCount()
    {
        return names.length;
    }

    /** A path with escapes: compared as RFC 3986, 6.2.2 says, the slow way, as few paths have any. */
    private boolean matches(final ByteBuffer buffer, final int start, final int length, final int route)
    {
        final int covered = PercentCoding.match(buffer, start, start + length, paths[route]);
        return prefix[route] ? covered >= 0 : covered == length;
    }

    private static int bit(final HttpMethod method)
    {
        return 1 << method.ordinal();
    }

    /** The methods a route takes that an Allow field can name: HEAD with GET; an extension method has no name. */
    private static int allowBits(final HttpMethod method)
    {
        if (method == null || method == HttpMethod.OTHER)
        {
            return 0;
        }
        return method == HttpMethod.GET ? bit(HttpMethod.GET) | bit(HttpMethod.HEAD) : bit(method);
    }

    private String allowValue(final int methods)
    {
        String value = allowValues[methods];
        if (value == null)
        {
            final StringBuilder text = new StringBuilder();
            for (final HttpMethod method : NAMED)
            {
                if ((methods & bit(method)) != 0)
                {
                    text.append(text.length() == 0 ? "" : ", ").append(method.name());
                }
            }
            value = text.toString();
            allowValues[methods] = value;
        }
        return value;
    }

    private static final class Route
    {
        final HttpMethod method;
        final byte[] path;
        final boolean prefix;
        final HttpHandler handler;
        final String name;

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
            this.path = PercentCoding.normalize(path);
            this.prefix = prefix;
            this.handler = handler;
            this.name = (method == null ? "*" : method.name()) + " " + path + (prefix ? "*" : "");
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
         * @param path    the path, from '/', percent-encoded where RFC 3986 says (a space as {@code %20}).
         * @param handler what answers.
         * @return this.
         * @throws IllegalArgumentException for a path not from '/', with a character to encode, or no handler.
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
         * @param prefix  the prefix, from '/', percent-encoded where RFC 3986 says.
         * @param handler what answers.
         * @return this.
         * @throws IllegalArgumentException for a prefix not from '/', with a character to encode, or no handler.
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
