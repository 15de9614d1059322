package io.celer.http.server;

import static io.celer.reactor.internal.ConfigChecks.atLeast;
import static io.celer.reactor.internal.ConfigChecks.positive;

import io.celer.tcp.TcpConfig;

/**
 * Settings of an {@link HttpServer}: limits, timeouts, strictness and the TCP settings under it; fluent,
 * checked as set and when the server opens.
 */
public final class HttpServerConfig
{
    private TcpConfig tcp = new TcpConfig();
    private int maxRequestLineLength = 8 * 1024;
    private int maxHeaderSectionSize = 16 * 1024;
    private int maxHeaderCount = 100;
    private int maxChunkLineLength = 4 * 1024;
    private long maxBodySize = 1024 * 1024;
    private int maxHeldBodySize = 16 * 1024;
    private long requestHeadTimeoutMillis = 10_000;
    private long idleTimeoutMillis = 60_000;
    private int minBodyBytesPerSecond = 240;
    private long bodyRateWindowMillis = 5_000;
    private boolean allowObsFold = false;
    private String serverName = "celer";
    private int maxPipelinedRequests = 16;
    private int connectionPoolSize = 64;
    private int maxRequestsPerRead = 32;
    private int responseBufferSize = 64 * 1024;
    private int responseHeadSize = 2 * 1024;
    private int readBufferSize = 64 * 1024;

    /**
     * Settings with every default, to be changed by the methods below.
     */
    public HttpServerConfig()
    {
    }

    /**
     * The TCP settings (transport, write buffer, socket options, limits). The server copies them and owns four,
     * whatever they say: the framing is raw (HTTP parses its own bytes), the read buffer is
     * {@link #readBufferSize}'s (its size is checked against this config's limits), a full write buffer never
     * disconnects (a response keeps its own bounded backlog, {@link #responseBufferSize}), and connection objects
     * are not reused ({@link HttpResponse#connection} may be kept past the close).
     *
     * @param tcp the settings, {@code .transport(TlsConfig)} for HTTPS.
     * @return this.
     */
    public HttpServerConfig tcp(final TcpConfig tcp)
    {
        if (tcp == null)
        {
            throw new IllegalArgumentException("tcp must not be null");
        }
        this.tcp = tcp;
        return this;
    }

    /**
     * Longest request line; a longer one is answered 414. 8 KiB by default.
     *
     * @param bytes the limit.
     * @return this.
     */
    public HttpServerConfig maxRequestLineLength(final int bytes)
    {
        this.maxRequestLineLength = atLeast(bytes, 16, "maxRequestLineLength");
        return this;
    }

    /**
     * Largest header section (the fields after the request line); a larger one is answered 431. 16 KiB by
     * default; also bounds a chunked body's trailers.
     *
     * @param bytes the limit.
     * @return this.
     */
    public HttpServerConfig maxHeaderSectionSize(final int bytes)
    {
        this.maxHeaderSectionSize = atLeast(bytes, 64, "maxHeaderSectionSize");
        return this;
    }

    /**
     * Most header fields in a request; more are answered 431. 100 by default.
     *
     * @param count the limit.
     * @return this.
     */
    public HttpServerConfig maxHeaderCount(final int count)
    {
        this.maxHeaderCount = atLeast(count, 1, "maxHeaderCount");
        return this;
    }

    /**
     * Longest chunk-size line, extensions included; a longer one is answered 400. 4 KiB by default.
     *
     * @param bytes the limit.
     * @return this.
     */
    public HttpServerConfig maxChunkLineLength(final int bytes)
    {
        this.maxChunkLineLength = atLeast(bytes, 8, "maxChunkLineLength");
        return this;
    }

    /**
     * Largest request body, held or streamed; a larger one is answered 413. 1 MiB by default.
     *
     * @param bytes the limit.
     * @return this.
     */
    public HttpServerConfig maxBodySize(final long bytes)
    {
        if (bytes < 0)
        {
            throw new IllegalArgumentException("maxBodySize must not be negative: " + bytes);
        }
        this.maxBodySize = bytes;
        return this;
    }

    /**
     * Largest body handed to the handler whole in {@link HttpRequest#body()}; a larger one is streamed to a
     * {@link BodyListener}. 16 KiB by default; with the head it must fit the TCP read buffer.
     *
     * @param bytes the limit.
     * @return this.
     */
    public HttpServerConfig maxHeldBodySize(final int bytes)
    {
        this.maxHeldBodySize = atLeast(bytes, 0, "maxHeldBodySize");
        return this;
    }

    /**
     * How long a request's head (and a held body) may take to arrive once begun; then 408 and close.
     * 10 s by default.
     *
     * @param millis the timeout.
     * @return this.
     */
    public HttpServerConfig requestHeadTimeoutMillis(final long millis)
    {
        this.requestHeadTimeoutMillis = positive(millis, "requestHeadTimeoutMillis");
        return this;
    }

    /**
     * The slowest a streamed request body may arrive (one too large to hold, given to a {@link BodyListener}):
     * in every window of that many milliseconds while the server reads it, at least {@code bytesPerSecond} times
     * the window's seconds must come, else the request ends with 408 (or, once its response has begun, the
     * connection closes), so that a byte every few seconds cannot hold a connection for the whole body limit.
     * 240 bytes a second over 5 s windows by default, as Kestrel's minimum request body data rate.
     *
     * @param bytesPerSecond the rate; 0 for no minimum.
     * @param windowMillis   the window the rate is measured over.
     * @return this.
     */
    public HttpServerConfig minBodyRate(final int bytesPerSecond, final long windowMillis)
    {
        this.minBodyBytesPerSecond = atLeast(bytesPerSecond, 0, "minBodyRate bytesPerSecond");
        this.bodyRateWindowMillis = positive(windowMillis, "minBodyRate windowMillis");
        return this;
    }

    /**
     * How long a keep-alive connection may sit idle between requests before it is closed silently. 60 s by
     * default.
     *
     * @param millis the timeout.
     * @return this.
     */
    public HttpServerConfig idleTimeoutMillis(final long millis)
    {
        this.idleTimeoutMillis = positive(millis, "idleTimeoutMillis");
        return this;
    }

    /**
     * Whether obsolete line folding in header fields is replaced by spaces (RFC 9112, 5.2) instead of being
     * rejected with 400; off by default.
     *
     * @param allow the option.
     * @return this.
     */
    public HttpServerConfig allowObsFold(final boolean allow)
    {
        this.allowObsFold = allow;
        return this;
    }

    /**
     * The {@code Server} header's value, or null for none. "celer" by default.
     *
     * @param name printable ASCII.
     * @return this.
     */
    public HttpServerConfig serverName(final String name)
    {
        if (name != null)
        {
            for (int i = 0; i < name.length(); i++)
            {
                final char c = name.charAt(i);
                if (c < 0x20 || c > 0x7E)
                {
                    throw new IllegalArgumentException("serverName must be printable ASCII: " + name);
                }
            }
        }
        this.serverName = name;
        return this;
    }

    /**
     * How many request tables a server keeps for the next requests, and how many response heads and response
     * outputs it keeps at least; 64 by default, 0 for none. A request table is lent while a request is read and
     * handled, a response head until its response is sent, an output (what puts a connection's responses out in
     * order and times them) while the connection has a response in flight; heads and outputs are kept as many as
     * were out at once, trimmed now and then to the latest peak and this floor. Buffers are pooled by the TCP
     * layer ({@link TcpConfig#bufferPoolSize}).
     *
     * @param connections how many of each are kept.
     * @return this.
     */
    public HttpServerConfig connectionPoolSize(final int connections)
    {
        this.connectionPoolSize = atLeast(connections, 0, "connectionPoolSize");
        return this;
    }

    int connectionPoolSize()
    {
        return connectionPoolSize;
    }

    /**
     * Most requests in flight on one connection (answered or not, waiting to be sent in order); a connection
     * is not read further until the oldest is sent. 16 by default.
     *
     * @param count the limit.
     * @return this.
     */
    public HttpServerConfig maxPipelinedRequests(final int count)
    {
        this.maxPipelinedRequests = atLeast(count, 1, "maxPipelinedRequests");
        return this;
    }

    /**
     * Most requests handled on one connection before the reactor serves the others; the rest wait for the next
     * cycle. 32 by default.
     *
     * @param count the limit.
     * @return this.
     */
    public HttpServerConfig maxRequestsPerRead(final int count)
    {
        this.maxRequestsPerRead = atLeast(count, 1, "maxRequestsPerRead");
        return this;
    }

    /**
     * Bytes of responses a connection holds beyond the TCP write buffer: responses answered before their turn,
     * and what a slow peer has not taken yet. 64 KiB by default, allocated on first need.
     *
     * @param bytes the size.
     * @return this.
     */
    public HttpServerConfig responseBufferSize(final int bytes)
    {
        this.responseBufferSize = atLeast(bytes, 256, "responseBufferSize");
        return this;
    }

    /**
     * Largest response head (status line and fields) a handler can build. 2 KiB by default.
     *
     * @param bytes the size.
     * @return this.
     */
    public HttpServerConfig responseHeadSize(final int bytes)
    {
        this.responseHeadSize = atLeast(bytes, 128, "responseHeadSize");
        return this;
    }

    /**
     * Size of each connection's read buffer, the only one the server reads (not the TCP settings'); it must hold
     * a request line, a header section and a held body at their limits. 64 KiB by default.
     *
     * @param bytes the size.
     * @return this.
     */
    public HttpServerConfig readBufferSize(final int bytes)
    {
        this.readBufferSize = atLeast(bytes, 1024, "readBufferSize");
        return this;
    }

    int readBufferSize()
    {
        return readBufferSize;
    }

    TcpConfig tcp()
    {
        return tcp;
    }

    int maxRequestLineLength()
    {
        return maxRequestLineLength;
    }

    int maxHeaderSectionSize()
    {
        return maxHeaderSectionSize;
    }

    int maxHeaderCount()
    {
        return maxHeaderCount;
    }

    int maxChunkLineLength()
    {
        return maxChunkLineLength;
    }

    long maxBodySize()
    {
        return maxBodySize;
    }

    int maxHeldBodySize()
    {
        return maxHeldBodySize;
    }

    long requestHeadTimeoutMillis()
    {
        return requestHeadTimeoutMillis;
    }

    int minBodyBytesPerSecond()
    {
        return minBodyBytesPerSecond;
    }

    long bodyRateWindowMillis()
    {
        return bodyRateWindowMillis;
    }

    long idleTimeoutMillis()
    {
        return idleTimeoutMillis;
    }

    boolean allowObsFold()
    {
        return allowObsFold;
    }

    String serverName()
    {
        return serverName;
    }

    int maxPipelinedRequests()
    {
        return maxPipelinedRequests;
    }

    int maxRequestsPerRead()
    {
        return maxRequestsPerRead;
    }

    int responseBufferSize()
    {
        return responseBufferSize;
    }

    int responseHeadSize()
    {
        return responseHeadSize;
    }

    /**
     * Checks the settings against each other and against the read buffer.
     *
     * @throws IllegalArgumentException naming the settings that cannot work together.
     */
    void check()
    {
        final long held = (long)maxRequestLineLength + maxHeaderSectionSize + maxHeldBodySize + maxChunkLineLength + 2;
        if (held >= readBufferSize)
        {
            throw new IllegalArgumentException("readBufferSize of " + readBufferSize + " bytes must be larger than " +
                "maxRequestLineLength + maxHeaderSectionSize + maxHeldBodySize + maxChunkLineLength (" + held + ")");
        }
    }
}
