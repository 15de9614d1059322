package io.celer.websocket.client;

import java.nio.ByteBuffer;

import io.celer.http.internal.HeadFields;
import io.celer.http.internal.ResponseHeadParser;
import io.celer.reactor.internal.ReactorPool;
import io.celer.websocket.deflate.DeflateParameters;
import io.celer.websocket.deflate.PerMessageDeflate;
import io.celer.websocket.internal.AcceptKey;

/**
 * The server's answer to a client's opening handshake, read across reads with celer-http's response head parser
 * (strict on line ends, names, values, framing fields and size), then checked as RFC 6455 section 4.1 asks of a
 * client: 101 in HTTP/1.1, {@code Upgrade: websocket}, a {@code Connection} that lists upgrade, the
 * {@code Sec-WebSocket-Accept} the key calls for, and an extension or a subprotocol only as offered. Once per
 * connection, so it may allocate: the head's copy, and Strings for what it agrees on.
 */
final class UpgradeAnswer
{
    /** The answer's head is not complete yet. */
    static final int NEED_MORE = 0;
    /** The answer upgrades the connection. */
    static final int ACCEPTED = 1;
    /** The answer is malformed or refuses; {@link #failure()} says why. */
    static final int REFUSED = 2;

    private static final int MAX_HEAD = 16 * 1024;
    private static final int MAX_FIELDS = 100;

    private final ResponseHeadParser parser =
        new ResponseHeadParser(new ReactorPool<>(0, () -> ByteBuffer.allocate(MAX_HEAD)), MAX_HEAD);
    private final HeadFields fields = new HeadFields(MAX_FIELDS);
    private final String key;
    private final String[] subprotocols;
    private final PerMessageDeflate deflate;

    private String failure;
    private String subprotocol;
    private DeflateParameters compression;

    /**
     * @param key          the Sec-WebSocket-Key the request sent.
     * @param subprotocols the subprotocols it offered.
     * @param deflate      the permessage-deflate offer it made, or null for none.
     */
    UpgradeAnswer(final String key, final String[] subprotocols, final PerMessageDeflate deflate)
    {
        this.key = key;
        this.subprotocols = subprotocols;
        this.deflate = deflate;
    }

    /**
     * Reads the answer at the buffer's position: once its head is whole, moves the position past it and checks it;
     * until then leaves the position, so that the next read brings the same bytes and more.
     *
     * @param buffer the bytes read.
     * @return {@link #NEED_MORE}, {@link #ACCEPTED} or {@link #REFUSED}.
     */
    int read(final ByteBuffer buffer)
    {
        final int start = buffer.position();
        final int parsed = parser.parse(buffer, start, buffer.limit(), fields);
        if (parsed == ResponseHeadParser.NEED_MORE)
        {
            return NEED_MORE;
        }
        if (parsed == ResponseHeadParser.ERROR)
        {
            failure = "a malformed answer: " + parser.error().message();
        }
        else
        {
            buffer.position(start + parser.headLength());
            failure = check();
        }
        parser.release();
        return failure == null ? ACCEPTED : REFUSED;
    }

    /** Why the answer was refused, or null. */
    String failure()
    {
        return failure;
    }

    /** The subprotocol the server chose, or null. */
    String subprotocol()
    {
        return subprotocol;
    }

    /** The permessage-deflate parameters agreed on, or null. */
    DeflateParameters compression()
    {
        return compression;
    }

    /** The client's duties (RFC 6455 section 4.1): why the answer fails, or null. */
    private String check()
    {
        if (parser.status() != 101)
        {
            return "the server answered " + parser.status() + ", not 101";
        }
        if (fields.minorVersion() != 1)
        {
            return "the server answered in HTTP/1.0, not 1.1";
        }
        final int upgrade = only("Upgrade");
        if (upgrade < 0 || !fields.value(upgrade).equalsIgnoreCase("websocket"))
        {
            return "the answer's Upgrade is not websocket";
        }
        if (!anyLists("Connection", "upgrade"))
        {
            return "the answer's Connection does not list upgrade";
        }
        final int accept = only("Sec-WebSocket-Accept");
        if (accept < 0 || !new AcceptKey().matches(key, fields.value(accept)))
        {
            return "the answer's Sec-WebSocket-Accept does not match the key";
        }
        final String extensions = joined("Sec-WebSocket-Extensions");
        if (extensions != null)
        {
            final DeflateParameters agreed = deflate == null ? null : deflate.confirm(extensions);
            if (agreed == null)
            {
                return "the answer's extensions were not offered: " + extensions;
            }
            compression = agreed;
        }
        final String protocol = joined("Sec-WebSocket-Protocol");
        if (protocol != null)
        {
            if (only("Sec-WebSocket-Protocol") < 0 || !offered(protocol))
            {
                return "the answer's subprotocol was not offered: " + protocol;
            }
            subprotocol = protocol;
        }
        return null;
    }

    /** The index of the one field with this name; -1 when it is absent or repeated. */
    private int only(final String name)
    {
        final int first = fields.indexOf(name);
        for (int i = first + 1; first >= 0 && i < fields.count(); i++)
        {
            if (fields.name(i).equalsIgnoreCase(name))
            {
                return -1;
            }
        }
        return first;
    }

    /** Whether a field with this name lists the token. */
    private boolean anyLists(final String name, final String token)
    {
        for (int i = 0; i < fields.count(); i++)
        {
            if (fields.name(i).equalsIgnoreCase(name) && fields.value(i).listContains(token))
            {
                return true;
            }
        }
        return false;
    }

    /** The values of every field with this name, joined with commas as RFC 9110 section 5.3 allows; null if none. */
    private String joined(final String name)
    {
        StringBuilder values = null;
        for (int i = 0; i < fields.count(); i++)
        {
            if (fields.name(i).equalsIgnoreCase(name))
            {
                values = values == null ? new StringBuilder() : values.append(", ");
                values.append(fields.value(i));
            }
        }
        return values == null ? null : values.toString();
    }

    private boolean offered(final String protocol)
    {
        for (final String candidate : subprotocols)
        {
            if (candidate.equals(protocol))
            {
                return true;
            }
        }
        return false;
    }
}
