package io.celer.websocket.server;

import java.nio.ByteBuffer;
import java.util.function.Supplier;

import io.celer.http.AsciiView;
import io.celer.http.HttpMethod;
import io.celer.http.HttpStatus;
import io.celer.http.server.HttpHandler;
import io.celer.http.server.HttpRequest;
import io.celer.http.server.HttpResponse;
import io.celer.websocket.WebSocketConfig;
import io.celer.websocket.WebSocketHandler;
import io.celer.websocket.deflate.DeflateParameters;
import io.celer.websocket.deflate.PerMessageDeflate;
import io.celer.websocket.internal.AcceptKey;
import io.celer.websocket.internal.SecWebSocketKey;
import io.celer.websocket.internal.Subprotocols;
import io.celer.websocket.internal.WebSocketSession;

/**
 * Upgrades HTTP requests to WebSocket (RFC 6455 section 4.2): an {@link HttpHandler} to route on any path or
 * prefix. It checks the request as section 4.2.1 asks (GET, HTTP/1.1, Host, {@code Upgrade: websocket},
 * {@code Connection: upgrade}, a Base64 {@code Sec-WebSocket-Key} of 16 bytes: else 400; version 13: else 426
 * naming it), then the origin (else 403), picks a subprotocol and permessage-deflate, answers 101 with
 * {@code Sec-WebSocket-Accept}, and hands the connection, with every byte the client sent after its request,
 * to a server {@link WebSocketSession}.
 *
 * <pre>{@code
 * WebSocketUpgrade upgrade = new WebSocketUpgrade(new WebSocketConfig(), echoHandler)
 *     .compression(new PerMessageDeflate(false, false)).originCheck(OriginCheck.allowing("https://example.com"));
 * new HttpServer(reactor, 8080, new HttpServerConfig(), Router.builder().prefix(HttpMethod.GET, "/ws", upgrade)
 *     .build()).open();
 * }</pre>
 *
 * <p>Runs on the reactor thread of the server it serves (one instance per reactor). Checking and refusing a
 * request allocates nothing; an accepted handshake allocates its connection's session, and the request path's
 * String when it differs from the previous upgrade's (clients of one endpoint share one); with permessage-deflate
 * also the agreed parameters, the response header's text, and the JDK deflater and inflater with a 16 KiB direct
 * buffer. A session's reassembly buffer is made only when a message comes in pieces.
 */
public final class WebSocketUpgrade implements HttpHandler
{
    private static final String VERSION = "13";
    private static final String[] NONE = new String[0];

    private final WebSocketConfig config;
    private final Supplier<? extends WebSocketHandler> handlers;
    private final AcceptKey acceptKey = new AcceptKey();
    private final ByteBuffer accept = ByteBuffer.allocate(AcceptKey.LENGTH);
    // A view of the buffer the accept value is rewritten into: the header without a String.
    private final AsciiView acceptText = new AsciiView().wrap(accept, 0, AcceptKey.LENGTH);

    private OriginCheck originCheck = OriginCheck.any();
    private String[] subprotocols = NONE;
    private PerMessageDeflate deflate;
    private int deflateLevel = -1;
    private HttpHandler otherwise;
    /** The previous upgrade's path, handed to the next session asking for the same one. */
    private String lastPath;

    /**
     * An upgrade that accepts every origin, no subprotocol and no compression until told otherwise.
     *
     * @param config  each session's settings.
     * @param handler the application, shared by every session (per-connection state goes in
     *                {@link io.celer.websocket.WebSocket#attach}).
     */
    public WebSocketUpgrade(final WebSocketConfig config, final WebSocketHandler handler)
    {
        this(config, shared(handler));
    }

    /**
     * An upgrade whose every session gets a handler of its own, made as the session opens (an outbox's, say:
     * see {@link io.celer.websocket.outbound.Fanout#handler}).
     *
     * @param config   each session's settings.
     * @param handlers makes one session's handler, on the reactor thread; never returns null.
     */
    public WebSocketUpgrade(final WebSocketConfig config, final Supplier<? extends WebSocketHandler> handlers)
    {
        if (config == null || handlers == null)
        {
            throw new IllegalArgumentException("config and handler must not be null");
        }
        this.config = config;
        this.handlers = handlers;
    }

    private static Supplier<WebSocketHandler> shared(final WebSocketHandler handler)
    {
        if (handler == null)
        {
            throw new IllegalArgumentException("config and handler must not be null");
        }
        return () -> handler;
    }

    /**
     * The origin check (RFC 6455 section 10.2); a refused origin gets 403.
     *
     * @param check the check; {@link OriginCheck#any()} by default.
     * @return this.
     */
    public WebSocketUpgrade originCheck(final OriginCheck check)
    {
        this.originCheck = check == null ? OriginCheck.any() : check;
        return this;
    }

    /**
     * The subprotocols this server speaks, most preferred first; the first one the client offers is chosen.
     *
     * @param supported the names (case-sensitive).
     * @return this.
     */
    public WebSocketUpgrade subprotocols(final String... supported)
    {
        this.subprotocols = supported.clone();
        return this;
    }

    /**
     * Accepts permessage-deflate offers (RFC 7692) as this negotiator decides, at the default level.
     *
     * @param negotiator the negotiator, or null for no compression.
     * @return this.
     */
    public WebSocketUpgrade compression(final PerMessageDeflate negotiator)
    {
        return compression(negotiator, -1);
    }

    /**
     * Accepts permessage-deflate offers (RFC 7692) as this negotiator decides.
     *
     * @param negotiator the negotiator, or null for no compression.
     * @param level      the DEFLATE level, 0 to 9, or -1 for the default.
     * @return this.
     */
    public WebSocketUpgrade compression(final PerMessageDeflate negotiator, final int level)
    {
        if (level < -1 || level > 9)
        {
            throw new IllegalArgumentException("level must be -1 or 0 to 9: " + level);
        }
        this.deflate = negotiator;
        this.deflateLevel = level;
        return this;
    }

    /**
     * Answers the requests that do not ask for a WebSocket at all (no {@code Upgrade} field naming
     * {@code websocket}): a page, say. Without one they get 400.
     *
     * @param handler the handler, or null.
     * @return this.
     */
    public WebSocketUpgrade otherwise(final HttpHandler handler)
    {
        this.otherwise = handler;
        return this;
    }

    @Override
    public void handle(final HttpRequest request, final HttpResponse response)
    {
        final AsciiView upgrade = request.header("Upgrade");
        final boolean wantsWebSocket = upgrade != null && upgrade.listContains("websocket");
        if (!wantsWebSocket && otherwise != null)
        {
            otherwise.handle(request, response);
            return;
        }
        if (!wantsWebSocket || request.method() != HttpMethod.GET || request.minorVersion() != 1 ||
            !request.hasHeader("Host") || !hasUpgradeToken(request))
        {
            refuse(response, HttpStatus.BAD_REQUEST, "not a WebSocket upgrade request\n");
            return;
        }
        final int keyIndex = onlyField(request, "Sec-WebSocket-Key");
        if (keyIndex < 0 || !SecWebSocketKey.isValid(request.headerValue(keyIndex)))
        {
            refuse(response, HttpStatus.BAD_REQUEST, "Sec-WebSocket-Key must be 16 bytes in Base64\n");
            return;
        }
        final int versionIndex = onlyField(request, "Sec-WebSocket-Version");
        if (versionIndex == -1)
        {
            refuse(response, HttpStatus.BAD_REQUEST, "Sec-WebSocket-Version is missing\n");
            return;
        }
        if (versionIndex < 0 || !request.headerValue(versionIndex).contentEquals(VERSION))
        {
            response.status(426).header("Sec-WebSocket-Version", VERSION).header("Content-Type", "text/plain")
                .body("this server speaks WebSocket version 13\n");
            return;
        }
        if (!originCheck.allows(request.header("Origin")))
        {
            refuse(response, 403, "origin not allowed\n");
            return;
        }
        accept.clear();
        acceptKey.write(request.headerValue(keyIndex), accept);
        final String subprotocol = selectSubprotocol(request);
        final DeflateParameters agreed = negotiateDeflate(request);
        final WebSocketSession session = WebSocketSession.server(config, handlers.get())
            .agreed(path(request), subprotocol);
        if (agreed != null)
        {
            session.compression(agreed, deflateLevel);
        }
        response.status(HttpStatus.SWITCHING_PROTOCOLS).header("Upgrade", "websocket")
            .header("Connection", "Upgrade").header("Sec-WebSocket-Accept", acceptText);
        if (subprotocol != null)
        {
            response.header("Sec-WebSocket-Protocol", subprotocol);
        }
        if (agreed != null)
        {
            response.header("Sec-WebSocket-Extensions", PerMessageDeflate.response(agreed));
        }
        response.upgrade(session);
    }

    /**
     * The request's path as a String the session keeps: the previous one when equal, so that the thousands of
     * clients of one endpoint hold one String between them, not one each.
     */
    private String path(final HttpRequest request)
    {
        if (lastPath == null || !request.path().contentEquals(lastPath))
        {
            lastPath = request.path().toString();
        }
        return lastPath;
    }

    private static void refuse(final HttpResponse response, final int status, final String why)
    {
        response.status(status).header("Content-Type", "text/plain").body(why);
    }

    /** Whether any Connection field lists the {@code upgrade} token. */
    private static boolean hasUpgradeToken(final HttpRequest request)
    {
        for (int i = 0; i < request.headerCount(); i++)
        {
            if (request.headerName(i).equalsIgnoreCase("Connection") && request.headerValue(i).listContains("upgrade"))
            {
                return true;
            }
        }
        return false;
    }

    /**
     * The index of the one field with this name: -1 when absent, -2 when repeated.
     */
    private static int onlyField(final HttpRequest request, final CharSequence name)
    {
        int found = -1;
        for (int i = 0; i < request.headerCount(); i++)
        {
            if (request.headerName(i).equalsIgnoreCase(name))
            {
                if (found >= 0)
                {
                    return -2;
                }
                found = i;
            }
        }
        return found;
    }

    /** The first supported subprotocol offered in any Sec-WebSocket-Protocol field. */
    private String selectSubprotocol(final HttpRequest request)
    {
        if (subprotocols.length == 0)
        {
            return null;
        }
        for (final String candidate : subprotocols)
        {
            for (int i = 0; i < request.headerCount(); i++)
            {
                if (request.headerName(i).equalsIgnoreCase("Sec-WebSocket-Protocol") &&
                    Subprotocols.offers(request.headerValue(i), candidate))
                {
                    return candidate;
                }
            }
        }
        return null;
    }

    /** The first acceptable permessage-deflate offer, field by field. */
    private DeflateParameters negotiateDeflate(final HttpRequest request)
    {
        if (deflate == null)
        {
            return null;
        }
        for (int i = 0; i < request.headerCount(); i++)
        {
            if (request.headerName(i).equalsIgnoreCase("Sec-WebSocket-Extensions"))
            {
                final DeflateParameters agreed = deflate.accept(request.headerValue(i));
                if (agreed != null)
                {
                    return agreed;
                }
            }
        }
        return null;
    }
}
