package io.celer.websocket.deflate;

import io.celer.websocket.internal.MessageDeflater;

/**
 * Negotiates permessage-deflate (RFC 7692 section 7.1) for a server or a client, within what the JDK can do:
 * its raw deflater always uses a 15-bit window, so a server asked for a smaller window compresses with Huffman
 * coding alone (no back-references, readable with any window), and a client never offers
 * {@code client_max_window_bits} (so a server cannot ask it for a smaller window).
 * Inflating handles any window up to 15 bits, so limits on the peer's window are accepted as they are.
 *
 * <p>Runs once per handshake; it allocates only the response header it returns.
 */
public final class PerMessageDeflate
{
    /** The extension's name. */
    public static final String NAME = "permessage-deflate";

    private static final String SERVER_NO_CONTEXT_TAKEOVER = "server_no_context_takeover";
    private static final String CLIENT_NO_CONTEXT_TAKEOVER = "client_no_context_takeover";
    private static final String SERVER_MAX_WINDOW_BITS = "server_max_window_bits";
    private static final String CLIENT_MAX_WINDOW_BITS = "client_max_window_bits";

    private final boolean serverNoContextTakeover;
    private final boolean clientNoContextTakeover;
    private final ExtensionTokens tokens = new ExtensionTokens();

    /**
     * A negotiator.
     *
     * @param serverNoContextTakeover whether the server resets its compressor per message even when not asked to
     *                                (less memory held between messages, less compression).
     * @param clientNoContextTakeover whether to ask the client (as a server) or to offer (as a client) that the
     *                                client resets its compressor per message.
     */
    public PerMessageDeflate(final boolean serverNoContextTakeover, final boolean clientNoContextTakeover)
    {
        this.serverNoContextTakeover = serverNoContextTakeover;
        this.clientNoContextTakeover = clientNoContextTakeover;
    }

    /**
     * A server's choice among a client's offers: the first it can accept.
     *
     * @param offers the Sec-WebSocket-Extensions value(s), comma-joined; may hold other extensions.
     * @return the agreed parameters, or null to go without compression.
     */
    public DeflateParameters accept(final CharSequence offers)
    {
        if (offers == null)
        {
            return null;
        }
        tokens.reset(offers);
        int kind = tokens.next();
        while (kind == ExtensionTokens.EXTENSION)
        {
            if (!tokens.nameIs(NAME))
            {
                tokens.skipExtension();
                kind = tokens.next();
                continue;
            }
            boolean serverReset = serverNoContextTakeover;
            boolean clientReset = clientNoContextTakeover;
            int serverBits = 0;
            boolean acceptable = true;
            int seen = 0;
            while ((kind = tokens.next()) == ExtensionTokens.PARAMETER)
            {
                final int flag = parameterFlag();
                if (flag == 0 || (seen & flag) != 0)
                {
                    acceptable = false; // unknown or repeated: decline this offer
                    continue;
                }
                seen |= flag;
                if (flag == 1)
                {
                    acceptable &= tokens.valueStart < 0;
                    serverReset = true;
                }
                else if (flag == 2)
                {
                    acceptable &= tokens.valueStart < 0;
                }
                else if (flag == 4)
                {
                    serverBits = tokens.windowBits();
                    // Below 15 bits the deflater codes without back-references (MessageDeflater).
                    acceptable &= serverBits > 0;
                }
                else
                {
                    acceptable &= tokens.valueStart < 0 || tokens.windowBits() > 0;
                }
            }
            if (kind == ExtensionTokens.INVALID)
            {
                return null;
            }
            if (acceptable)
            {
                // client_max_window_bits only says the client could narrow its window; it is not asked to.
                return new DeflateParameters(serverReset, clientReset, serverBits, 0);
            }
        }
        return null;
    }

    /**
     * The server's Sec-WebSocket-Extensions response for accepted parameters.
     *
     * @param agreed what {@link #accept} returned.
     * @return the header's value.
     */
    public static String response(final DeflateParameters agreed)
    {
        final StringBuilder response = new StringBuilder(NAME);
        if (agreed.serverNoContextTakeover())
        {
            response.append("; ").append(SERVER_NO_CONTEXT_TAKEOVER);
        }
        if (agreed.clientNoContextTakeover())
        {
            response.append("; ").append(CLIENT_NO_CONTEXT_TAKEOVER);
        }
        if (agreed.serverMaxWindowBits() > 0)
        {
            // Accepting an offer that names the server's window means naming it back (RFC 7692 7.1.2.1).
            response.append("; ").append(SERVER_MAX_WINDOW_BITS).append('=').append(agreed.serverMaxWindowBits());
        }
        return response.toString();
    }

    /**
     * A client's offer.
     *
     * @return the Sec-WebSocket-Extensions value.
     */
    public String offer()
    {
        return NAME + (serverNoContextTakeover ? "; " + SERVER_NO_CONTEXT_TAKEOVER : "") +
            (clientNoContextTakeover ? "; " + CLIENT_NO_CONTEXT_TAKEOVER : "");
    }

    /**
     * A client's check of the server's response to its {@link #offer()}.
     *
     * @param response the Sec-WebSocket-Extensions value of the response.
     * @return the agreed parameters, or null when the response breaks RFC 7692 or asks what this client cannot
     *         do, in which case the client must fail the connection.
     */
    public DeflateParameters confirm(final CharSequence response)
    {
        tokens.reset(response);
        if (tokens.next() != ExtensionTokens.EXTENSION || !tokens.nameIs(NAME))
        {
            return null;
        }
        boolean serverReset = false;
        boolean clientReset = clientNoContextTakeover;
        int serverBits = 0;
        int seen = 0;
        int kind;
        while ((kind = tokens.next()) == ExtensionTokens.PARAMETER)
        {
            final int flag = parameterFlag();
            if (flag == 0 || (seen & flag) != 0)
            {
                return null;
            }
            seen |= flag;
            if (flag == 1 || flag == 2)
            {
                if (tokens.valueStart >= 0)
                {
                    return null;
                }
                serverReset |= flag == 1;
                clientReset |= flag == 2;
            }
            else if (flag == 4)
            {
                serverBits = tokens.windowBits();
                if (serverBits < 0)
                {
                    return null;
                }
            }
            else
            {
                return null; // not offered: a window this client was never asked to narrow
            }
        }
        if (kind != ExtensionTokens.END || serverNoContextTakeover && !serverReset)
        {
            return null; // more than one extension, garbage, or a requested reset not granted
        }
        return new DeflateParameters(serverReset, clientReset, serverBits, 0);
    }

    private int parameterFlag()
    {
        if (tokens.nameIs(SERVER_NO_CONTEXT_TAKEOVER))
        {
            return 1;
        }
        if (tokens.nameIs(CLIENT_NO_CONTEXT_TAKEOVER))
        {
            return 2;
        }
        if (tokens.nameIs(SERVER_MAX_WINDOW_BITS))
        {
            return 4;
        }
        return tokens.nameIs(CLIENT_MAX_WINDOW_BITS) ? 8 : 0;
    }
}
