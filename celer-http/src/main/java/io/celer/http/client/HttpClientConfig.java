package io.celer.http.client;

import static io.celer.reactor.internal.ConfigChecks.atLeast;
import static io.celer.reactor.internal.ConfigChecks.positive;

import io.celer.tcp.TcpConfig;

/**
 * Settings of an {@link HttpClient}: connections, pipelining, limits, timeouts and the TCP settings under it;
 * fluent, checked as set and when the client is made.
 */
public final class HttpClientConfig
{
    private TcpConfig tcp = new TcpConfig();
    private int connectionsPerHost = 2;
    private int maxPipelineDepth = 16;
    private int maxPendingRequests = 1024;
    private int maxRequestSize = 16 * 1024;
    private int maxResponseHeadSize = 16 * 1024;
    private int maxResponseHeaders = 100;
    private int maxBodySize = 64 * 1024;
    private int readBufferSize = 64 * 1024;
    private long responseTimeoutMillis = 30_000;
    private long connectTimeoutMillis = 10_000;
    private long reconnectDelayMillis = 100;
    private long maxReconnectDelayMillis = 5_000;

    /**
     * Settings with every default, to be changed by the methods below.
     */
    public HttpClientConfig()
    {
    }

    /**
     * The TCP settings (transport, write buffer, socket options). The client copies them and owns these, whatever
     * they say: the framing is raw (HTTP parses its own bytes), the read buffer is {@link #readBufferSize}'s, a
     * full write buffer never disconnects, and the connect timeout, TLS handshake timeout and reconnect delays are
     * this config's.
     *
     * @param tcp the settings, {@code .transport(new TlsConfig())} for HTTPS.
     * @return this.
     */
    public HttpClientConfig tcp(final TcpConfig tcp)
    {
        if (tcp == null)
        {
            throw new IllegalArgumentException("tcp must not be null");
        }
        this.tcp = tcp;
        return this;
    }

    /**
     * Connections kept open to each host. 2 by default.
     *
     * @param count at least 1.
     * @return this.
     */
    public HttpClientConfig connectionsPerHost(final int count)
    {
        this.connectionsPerHost = atLeast(count, 1, "connectionsPerHost");
        return this;
    }

    /**
     * Most requests in flight on one connection, answered in order; 1 turns pipelining off. 16 by default. A
     * new connection carries one request until a response shows the server keeps connections open.
     *
     * @param depth at least 1.
     * @return this.
     */
    public HttpClientConfig maxPipelineDepth(final int depth)
    {
        this.maxPipelineDepth = atLeast(depth, 1, "maxPipelineDepth");
        return this;
    }

    /**
     * Most requests sent and not yet answered, in flight or waiting for a connection; more are rejected. 1024 by
     * default; each holds a request buffer of {@link #maxRequestSize}.
     *
     * @param count at least 1.
     * @return this.
     */
    public HttpClientConfig maxPendingRequests(final int count)
    {
        this.maxPendingRequests = atLeast(count, 1, "maxPendingRequests");
        return this;
    }

    /**
     * Largest request, head and body, as encoded; a larger one is rejected. 16 KiB by default.
     *
     * @param bytes at least 256.
     * @return this.
     */
    public HttpClientConfig maxRequestSize(final int bytes)
    {
        this.maxRequestSize = atLeast(bytes, 256, "maxRequestSize");
        return this;
    }

    /**
     * Largest response head (status line and fields); a larger one is a protocol error. 16 KiB by default; also
     * bounds a chunked body's trailers.
     *
     * @param bytes at least 64.
     * @return this.
     */
    public HttpClientConfig maxResponseHeadSize(final int bytes)
    {
        this.maxResponseHeadSize = atLeast(bytes, 64, "maxResponseHeadSize");
        return this;
    }

    /**
     * Most header fields in a response; more are a protocol error. 100 by default.
     *
     * @param count at least 1.
     * @return this.
     */
    public HttpClientConfig maxResponseHeaders(final int count)
    {
        this.maxResponseHeaders = atLeast(count, 1, "maxResponseHeaders");
        return this;
    }

    /**
     * Largest body held whole for {@link HttpClientResponse#body()}; a larger one streams to
     * {@link ResponseListener#bodyChunk} in parts of this size. 64 KiB by default, per connection.
     *
     * @param bytes at least 16.
     * @return this.
     */
    public HttpClientConfig maxBodySize(final int bytes)
    {
        this.maxBodySize = atLeast(bytes, 16, "maxBodySize");
        return this;
    }

    /**
     * Read buffer of each connection; must hold a whole response head. 64 KiB by default.
     *
     * @param bytes the size.
     * @return this.
     */
    public HttpClientConfig readBufferSize(final int bytes)
    {
        this.readBufferSize = atLeast(bytes, 128, "readBufferSize");
        return this;
    }

    /**
     * Longest wait from a request's send to its whole response; after it the request fails and its connection
     * closes, since the responses behind it could no longer be matched; an idempotent request retried after a
     * lost connection waits this long again from its retry. 30 s by default.
     *
     * @param millis positive.
     * @return this.
     */
    public HttpClientConfig responseTimeoutMillis(final long millis)
    {
        this.responseTimeoutMillis = positive(millis, "responseTimeoutMillis");
        return this;
    }

    /**
     * Longest wait for a connection (and its TLS handshake) to be established. 10 s by default.
     *
     * @param millis positive.
     * @return this.
     */
    public HttpClientConfig connectTimeoutMillis(final long millis)
    {
        this.connectTimeoutMillis = positive(millis, "connectTimeoutMillis");
        return this;
    }

    /**
     * First delay before reconnecting a lost connection, doubled per failed attempt. 100 ms by default.
     *
     * @param millis positive.
     * @return this.
     */
    public HttpClientConfig reconnectDelayMillis(final long millis)
    {
        this.reconnectDelayMillis = positive(millis, "reconnectDelayMillis");
        return this;
    }

    /**
     * Longest delay between reconnect attempts. 5 s by default.
     *
     * @param millis positive.
     * @return this.
     */
    public HttpClientConfig maxReconnectDelayMillis(final long millis)
    {
        this.maxReconnectDelayMillis = positive(millis, "maxReconnectDelayMillis");
        return this;
    }

    TcpConfig tcp()
    {
        return tcp;
    }

    int connectionsPerHost()
    {
        return connectionsPerHost;
    }

    int maxPipelineDepth()
    {
        return maxPipelineDepth;
    }

    int maxPendingRequests()
    {
        return maxPendingRequests;
    }

    int maxRequestSize()
    {
        return maxRequestSize;
    }

    int maxResponseHeadSize()
    {
        return maxResponseHeadSize;
    }

    int maxResponseHeaders()
    {
        return maxResponseHeaders;
    }

    int maxBodySize()
    {
        return maxBodySize;
    }

    int readBufferSize()
    {
        return readBufferSize;
    }

    long responseTimeoutMillis()
    {
        return responseTimeoutMillis;
    }

    long reconnectDelayMillis()
    {
        return reconnectDelayMillis;
    }

    long maxReconnectDelayMillis()
    {
        return maxReconnectDelayMillis;
    }

    /** The TCP settings the connections use. */
    TcpConfig connectionTcp()
    {
        return tcp.copy()
            .framing(() -> io.celer.framing.RawFraming.INSTANCE)
            .readBufferSize(readBufferSize)
            .disconnectOnFullWriteBuffer(false)
            .connectTimeoutMillis(connectTimeoutMillis)
            .handshakeTimeoutMillis(connectTimeoutMillis)
            .reconnectDelayMillis(reconnectDelayMillis)
            .maxReconnectDelayMillis(maxReconnectDelayMillis);
    }

    void check()
    {
        if (maxResponseHeadSize >= readBufferSize)
        {
            throw new IllegalArgumentException("readBufferSize of " + readBufferSize +
                " bytes must be larger than maxResponseHeadSize (" + maxResponseHeadSize + ")");
        }
    }
}
