package io.celer.websocket.client;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

import io.celer.framing.RawFraming;
import io.celer.reactor.Reactor;
import io.celer.tcp.CloseReason;
import io.celer.tcp.Connection;
import io.celer.tcp.Handler;
import io.celer.tcp.TcpClient;
import io.celer.tcp.TcpConfig;
import io.celer.tls.TlsConfig;
import io.celer.websocket.internal.MaskKeys;
import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketConfig;
import io.celer.websocket.WebSocketHandler;
import io.celer.websocket.internal.WebSocketSession;
import io.celer.websocket.deflate.DeflateParameters;
import io.celer.websocket.deflate.PerMessageDeflate;
import io.celer.websocket.internal.SecWebSocketKey;

/**
 * A WebSocket client for one connection: connects to a {@code ws://} or {@code wss://} URL (TLS verifying the
 * server's certificate and host name through {@link TlsConfig}), sends the opening handshake with a fresh key
 * and optional subprotocols and permessage-deflate offer, checks the {@code 101} answer strictly (RFC 6455
 * section 4.1: status, {@code Upgrade}, {@code Connection}, {@code Sec-WebSocket-Accept}, and an extension or
 * subprotocol only as offered), then runs a client {@link WebSocketSession} with the bytes that followed.
 *
 * <p>The handler hears {@code opened} once the handshake succeeds; a failed connect or handshake ends in
 * {@code closed} with 1006 and {@link #failure()} saying why. Set up from any thread before {@link #open()};
 * the session runs on the reactor thread. A send that does not fit the write buffer returns false, and the
 * handler's {@code writable} says when to go on. The handshake allocates (strings for the request, a copy of the
 * answer's head and what it agrees on, the session and its buffers), once per connection.
 */
public final class WebSocketClient implements AutoCloseable
{
    private final Reactor reactor;
    private final URI url;
    private final boolean secure;
    private final String host;
    private final int port;
    private final WebSocketConfig config;
    private final WebSocketHandler handler;
    private final StringBuilder extraFields = new StringBuilder();

    private TcpConfig tcp = new TcpConfig();
    private TlsConfig tls;
    private String[] subprotocols = new String[0];
    private PerMessageDeflate deflate;
    private long handshakeTimeoutMillis = 10_000;

    private TcpClient client;
    private WebSocketSession session;
    private String key;
    private UpgradeAnswer answer;
    private volatile boolean upgraded;
    private volatile String failure;
    private volatile String subprotocol;
    private volatile DeflateParameters compression;

    /**
     * A client, not yet connected.
     *
     * @param reactor the reactor that runs it.
     * @param url     {@code ws://host[:port]/path[?query]} or {@code wss://...}.
     * @param config  the session's settings.
     * @param handler the application.
     * @throws IllegalArgumentException if the URL is not a WebSocket URL (RFC 6455 section 3).
     */
    public WebSocketClient(final Reactor reactor, final String url, final WebSocketConfig config,
        final WebSocketHandler handler)
    {
        this.url = URI.create(url);
        final String scheme = this.url.getScheme() == null ? "" : this.url.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("ws") && !scheme.equals("wss"))
        {
            throw new IllegalArgumentException("not a ws:// or wss:// URL: " + url);
        }
        if (this.url.getHost() == null || this.url.getRawFragment() != null)
        {
            throw new IllegalArgumentException("a WebSocket URL has a host and no fragment: " + url);
        }
        this.reactor = reactor;
        this.secure = scheme.equals("wss");
        final String literal = this.url.getHost();
        this.host = literal.startsWith("[") ? literal.substring(1, literal.length() - 1) : literal;
        this.port = this.url.getPort() > 0 ? this.url.getPort() : secure ? 443 : 80;
        this.config = config;
        this.handler = handler;
    }

    /**
     * The TCP settings (buffers, socket options); framing and transport are set by the client.
     *
     * @param settings the settings, copied.
     * @return this.
     */
    public WebSocketClient tcp(final TcpConfig settings)
    {
        this.tcp = settings.copy();
        return this;
    }

    /**
     * The TLS settings for {@code wss://}; by default the JDK's trust store and host name checks.
     *
     * @param settings the settings.
     * @return this.
     */
    public WebSocketClient tls(final TlsConfig settings)
    {
        this.tls = settings;
        return this;
    }

    /**
     * Offers subprotocols, most preferred first; the server may pick one of them.
     *
     * @param offered the names.
     * @return this.
     */
    public WebSocketClient subprotocols(final String... offered)
    {
        this.subprotocols = offered.clone();
        return this;
    }

    /**
     * Offers permessage-deflate (RFC 7692) with this negotiator's offer.
     *
     * @param negotiator the negotiator, or null for no compression.
     * @return this.
     */
    public WebSocketClient compression(final PerMessageDeflate negotiator)
    {
        this.deflate = negotiator;
        return this;
    }

    /**
     * Adds a field to the handshake request ({@code Origin}, say).
     *
     * @param name  a token.
     * @param value text without CR or LF.
     * @return this.
     */
    public WebSocketClient header(final String name, final String value)
    {
        if (name.isEmpty() || name.chars().anyMatch(c -> c <= ' ' || c == ':' || c >= 0x7F) ||
            value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0)
        {
            throw new IllegalArgumentException("not a header field: " + name);
        }
        extraFields.append(name).append(": ").append(value).append("\r\n");
        return this;
    }

    /**
     * How long the TCP connect, TLS and the opening handshake may take together.
     *
     * @param millis the bound, positive.
     * @return this.
     */
    public WebSocketClient handshakeTimeoutMillis(final long millis)
    {
        if (millis <= 0)
        {
            throw new IllegalArgumentException("handshakeTimeoutMillis must be positive: " + millis);
        }
        this.handshakeTimeoutMillis = millis;
        return this;
    }

    /**
     * Starts connecting, from any thread.
     *
     * @return this.
     * @throws IllegalStateException if already opened.
     */
    public WebSocketClient open()
    {
        if (client != null)
        {
            throw new IllegalStateException("a client opens once");
        }
        final TcpConfig settings = tcp.copy().framing(() -> RawFraming.INSTANCE).connectTimeoutMillis(handshakeTimeoutMillis)
            .reconnectDelayMillis(0) // a client is one connection
            .disconnectOnFullWriteBuffer(false); // a send that does not fit returns false; writable() says when
        if (secure)
        {
            settings.transport(tls != null ? tls : new TlsConfig());
        }
        session = WebSocketSession.client(config, handler);
        client = new TcpClient(reactor, host, port, settings, new Upgrade());
        client.open();
        return this;
    }

    /**
     * Drops the connection at once, from any thread; {@link WebSocket#close} on the socket is the polite way.
     */
    @Override
    public void close()
    {
        if (client != null)
        {
            client.close();
        }
    }

    /**
     * The WebSocket, to send with on the reactor thread once opened.
     *
     * @return the socket, or null before {@link #open()}.
     */
    public WebSocket socket()
    {
        return session;
    }

    /**
     * Whether the opening handshake succeeded.
     *
     * @return true once upgraded.
     */
    public boolean isUpgraded()
    {
        return upgraded;
    }

    /**
     * Why the connection or the handshake failed.
     *
     * @return the reason, or null.
     */
    public String failure()
    {
        return failure;
    }

    /**
     * The subprotocol the server chose.
     *
     * @return the name, or null.
     */
    public String subprotocol()
    {
        return subprotocol;
    }

    /**
     * The permessage-deflate parameters agreed on.
     *
     * @return the parameters, or null without compression.
     */
    public DeflateParameters compression()
    {
        return compression;
    }

    /**
     * The request head.
     */
    private byte[] request()
    {
        final ByteBuffer generated = ByteBuffer.allocate(SecWebSocketKey.LENGTH);
        SecWebSocketKey.generate(new MaskKeys(), generated);
        key = new String(generated.array(), StandardCharsets.US_ASCII);
        final String path = requestPath();
        final boolean defaultPort = port == (secure ? 443 : 80);
        final String hostField = (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + (defaultPort ? "" : ":" + port);
        final StringBuilder request = new StringBuilder(256)
            .append("GET ").append(path).append(url.getRawQuery() == null ? "" : "?" + url.getRawQuery())
            .append(" HTTP/1.1\r\nHost: ").append(hostField)
            .append("\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ").append(key)
            .append("\r\nSec-WebSocket-Version: 13\r\n");
        if (subprotocols.length > 0)
        {
            request.append("Sec-WebSocket-Protocol: ").append(String.join(", ", subprotocols)).append("\r\n");
        }
        if (deflate != null)
        {
            request.append("Sec-WebSocket-Extensions: ").append(deflate.offer()).append("\r\n");
        }
        return request.append(extraFields).append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    private String requestPath()
    {
        return url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
    }

    /**
     * The connection's first handler: the handshake, after which the connection is handed to the session.
     */
    private final class Upgrade implements Handler
    {
        @Override
        public void opened(final Connection connection)
        {
            connection.setEventTimeout(handshakeTimeoutMillis);
            connection.send(request());
            answer = new UpgradeAnswer(key, subprotocols, deflate);
        }

        @Override
        public void message(final Connection connection, final ByteBuffer buffer)
        {
            if (failure != null)
            {
                buffer.position(buffer.limit());
                return;
            }
            if (answer.read(buffer) == UpgradeAnswer.NEED_MORE)
            {
                return;
            }
            final String why = answer.failure();
            compression = answer.compression();
            subprotocol = answer.subprotocol();
            answer = null;
            if (why != null)
            {
                failure = why;
                buffer.position(buffer.limit());
                connection.close();
                return;
            }
            connection.cancelEventTimeout();
            if (compression != null)
            {
                session.compression(compression);
            }
            upgraded = true;
            // The frames that came with the answer, and every later read, go to the session straight from the core.
            connection.handler(session.agreed(requestPath(), subprotocol));
        }

        @Override
        public void eventTimeout(final Connection connection, final long nowMillis)
        {
            failure = "no answer to the opening handshake within " + handshakeTimeoutMillis + " ms";
            connection.close();
        }

        @Override
        public void error(final Connection connection, final Throwable error)
        {
            if (failure == null)
            {
                failure = String.valueOf(error.getMessage() != null ? error.getMessage() : error);
            }
        }

        @Override
        public void closed(final Connection connection, final CloseReason reason)
        {
            if (failure == null)
            {
                failure = "closed before the handshake was done: " + reason;
            }
            session.closed(connection, reason); // its handler hears of the connection it never got
        }
    }

    @Override
    public String toString()
    {
        return "WebSocket client of " + url;
    }
}
