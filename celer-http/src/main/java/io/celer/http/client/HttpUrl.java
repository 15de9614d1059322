package io.celer.http.client;

import java.util.Locale;

import io.celer.http.internal.Ascii;

/**
 * An {@code http} or {@code https} URL cut into what a client needs (RFC 9110, 4.2): whether to use TLS, the
 * host, the port (80 or 443 by default) and the request target (path and query, {@code /} when empty). The
 * fragment is dropped; user info is refused, since a client must not send it in the clear.
 *
 * @param secure whether the scheme is https.
 * @param host   the host name or address, without IPv6 brackets.
 * @param port   the port.
 * @param target the path and query, as sent in the request line.
 */
public record HttpUrl(boolean secure, String host, int port, String target)
{
    /**
     * A host and port.
     *
     * @param host the host name or address, without IPv6 brackets.
     * @param port the port.
     */
    public record Authority(String host, int port)
    {
    }

    /**
     * Parses a URL.
     *
     * @param url such as {@code https://example.com:8443/a?b=c}.
     * @return its parts.
     * @throws IllegalArgumentException for another scheme, no host, a bad port or chars a request line may not
     *                                  hold.
     */
    public static HttpUrl parse(final String url)
    {
        final int colon = url.indexOf("://");
        if (colon < 0)
        {
            throw new IllegalArgumentException("not an absolute URL: " + url);
        }
        final String scheme = url.substring(0, colon).toLowerCase(Locale.ROOT);
        final boolean secure;
        if (scheme.equals("http"))
        {
            secure = false;
        }
        else if (scheme.equals("https"))
        {
            secure = true;
        }
        else
        {
            throw new IllegalArgumentException("scheme must be http or https: " + url);
        }
        final int authorityStart = colon + 3;
        int authorityEnd = authorityStart;
        while (authorityEnd < url.length() && "/?#".indexOf(url.charAt(authorityEnd)) < 0)
        {
            authorityEnd++;
        }
        final String authority = url.substring(authorityStart, authorityEnd);
        if (authority.indexOf('@') >= 0)
        {
            throw new IllegalArgumentException("user info is not supported: " + url);
        }
        final Authority parsed = parseAuthority(authority, secure ? 443 : 80);
        final int hash = url.indexOf('#', authorityEnd);
        String target = url.substring(authorityEnd, hash < 0 ? url.length() : hash);
        if (target.isEmpty() || target.charAt(0) == '?')
        {
            target = "/" + target;
        }
        for (int i = 0; i < target.length(); i++)
        {
            final char c = target.charAt(i);
            if (c <= ' ' || c >= 0x7F)
            {
                throw new IllegalArgumentException("the path and query must be visible ASCII: " + url);
            }
        }
        return new HttpUrl(secure, parsed.host(), parsed.port(), target);
    }

    /**
     * Parses {@code host:port}, {@code [v6]:port}, or a host alone when a default port is given.
     *
     * @param authority   the text.
     * @param defaultPort the port when none is given, or -1 to require one.
     * @return the host and port.
     * @throws IllegalArgumentException for no host, a missing or bad port.
     */
    public static Authority parseAuthority(final String authority, final int defaultPort)
    {
        final String host;
        final String port;
        if (authority.startsWith("["))
        {
            final int close = authority.indexOf(']');
            if (close < 0 || (close + 1 < authority.length() && authority.charAt(close + 1) != ':'))
            {
                throw new IllegalArgumentException("malformed IPv6 authority: " + authority);
            }
            host = authority.substring(1, close);
            port = close + 1 < authority.length() ? authority.substring(close + 2) : null;
        }
        else
        {
            final int colon = authority.lastIndexOf(':');
            if (colon >= 0 && authority.indexOf(':') != colon)
            {
                throw new IllegalArgumentException("an IPv6 address needs brackets: " + authority);
            }
            host = colon < 0 ? authority : authority.substring(0, colon);
            port = colon < 0 ? null : authority.substring(colon + 1);
        }
        if (host.isEmpty())
        {
            throw new IllegalArgumentException("no host in " + authority);
        }
        for (int i = 0; i < host.length(); i++)
        {
            final char c = host.charAt(i);
            if (c > 127 || !Ascii.isHostChar(c) || c == '/' || c == '@')
            {
                throw new IllegalArgumentException("bad char in host: " + authority);
            }
        }
        if (port == null)
        {
            if (defaultPort < 0)
            {
                throw new IllegalArgumentException("no port in " + authority + " (host:port)");
            }
            return new Authority(host, defaultPort);
        }
        return new Authority(host, parsePort(port, authority));
    }

    /**
     * The authority as a Host field value: the port is left out when it is the scheme's default.
     *
     * @return such as {@code example.com} or {@code [::1]:8080}.
     */
    public String hostHeader()
    {
        final String name = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        return port == (secure ? 443 : 80) ? name : name + ":" + port;
    }

    private static int parsePort(final String port, final String authority)
    {
        if (port.isEmpty() || port.length() > 5)
        {
            throw new IllegalArgumentException("bad port in " + authority);
        }
        int value = 0;
        for (int i = 0; i < port.length(); i++)
        {
            final char c = port.charAt(i);
            if (c < '0' || c > '9')
            {
                throw new IllegalArgumentException("bad port in " + authority);
            }
            value = value * 10 + c - '0';
        }
        if (value < 1 || value > 65535)
        {
            throw new IllegalArgumentException("port out of range in " + authority);
        }
        return value;
    }
}
