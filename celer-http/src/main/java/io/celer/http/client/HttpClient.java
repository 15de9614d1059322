package io.celer.http.client;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.celer.counters.Counter;
import io.celer.counters.Counters;
import io.celer.counters.LatencyHistogram;
import io.celer.http.HttpMethod;
import io.celer.reactor.Reactor;
import io.celer.reactor.TimerCallback;
import io.celer.reactor.internal.ReactorPool;

/**
 * An HTTP/1.1 client on one reactor, plain or TLS (through {@link HttpClientConfig#tcp}), over a pool of
 * keep-alive connections to one or several hosts; garbage-free per request in steady state.
 *
 * <p>Each request goes to the open connection with the fewest requests in flight; a connection pipelines up to
 * {@link HttpClientConfig#maxPipelineDepth} requests and matches responses to them in order. Requests wait in a
 * bounded queue while no connection can take them. When a connection is lost, the requests it had not written
 * go elsewhere; those it had written are retried once elsewhere if idempotent (GET, HEAD, PUT, DELETE, OPTIONS,
 * TRACE) and fail otherwise. A request without its whole response within the response timeout fails, and its
 * connection closes; a retry has the whole timeout again. Lost connections reconnect with back-off.
 *
 * <p>Hosts join ({@link #addHost}) and leave ({@link #removeHost}) at run time, from any thread: a host that
 * leaves takes no new request, its connections close once the requests they carry are answered (or failed over,
 * as on any loss), and nothing queued is dropped.
 *
 * <p>Threads: {@link #open()} and {@link #close()} may be called from any thread; {@link #request} and the
 * {@link HttpClientRequest} it returns only on the reactor thread, where every listener runs too. Another thread
 * sends through the reactor's queues: {@code reactor.callAsync(...)}, or a {@code reactor.callbackQueue} of
 * pooled callbacks to stay garbage-free.
 *
 * <pre>{@code
 * HttpClient client = new HttpClient(reactor, new HttpClientConfig(), "10.0.0.1:8080", "10.0.0.2:8080").open();
 * reactor.execute(() -> client.request(HttpMethod.GET, "/plaintext").send(listener));
 * }</pre>
 */
public final class HttpClient implements AutoCloseable, TimerCallback
{
    private final Reactor reactor;
    private final HttpClientConfig config;
    private final Counter retried;
    private final Counter failed;
    private final LatencyHistogram latency;
    // Replaced, not changed, when a host joins or leaves; other threads read them for the counters.
    private volatile List<String> hosts;
    private volatile ClientConnection[] connections;
    private final int writeCapacity;
    private final HttpClientRequest builder = new HttpClientRequest(this);
    private final long responseTimeoutMillis;
    private final long sweepMillis;
    private final int maxExchanges;
    private final int maxRequestSize;
    private final ReactorPool<ByteBuffer> heads;
    private final ReactorPool<ByteBuffer> bodies;

    private Exchange free;
    private int exchanges;
    private Exchange retryHead;
    private Exchange retryTail;
    private Exchange waitingHead;
    private Exchange waitingTail;
    private int pending;
    private int next;
    private int nextHostId;
    private boolean opened;
    private ClientConnection idleHead;
    private ClientConnection idleTail;
    private long sweepTimer = -1;
    private boolean rejecting;
    private boolean rejectionsScheduled;
    // Rejections are failures, not the steady state: a plain queue of (listener, exception) pairs suffices.
    private final ArrayDeque<Object> deferredRejections = new ArrayDeque<>();
    private final TimerCallback deliverRejections = (timerId, nowMillis) -> deliverDeferredRejections();
    private volatile boolean closed;

    /**
     * A client; nothing connects until {@link #open()}.
     *
     * @param reactor the reactor that runs it.
     * @param config  its settings, read now.
     * @param hosts   the servers, each {@code host:port} ({@code [v6]:port} for an IPv6 address).
     * @throws IllegalArgumentException for no host, a malformed one or settings that cannot work together.
     */
    public HttpClient(final Reactor reactor, final HttpClientConfig config, final String... hosts)
    {
        if (hosts.length == 0)
        {
            throw new IllegalArgumentException("at least one host:port is needed");
        }
        config.check();
        this.reactor = reactor;
        this.config = config;
        this.retried = reactor.counters().total("http.client.retried", "");
        this.failed = reactor.counters().total("http.client.failed", "");
        this.latency = reactor.counters().histogram("http.client.latency", "");
        this.hosts = List.of(hosts);
        this.responseTimeoutMillis = config.responseTimeoutMillis();
        this.sweepMillis = Math.max(1, Math.min(100, responseTimeoutMillis / 8));
        final List<ClientConnection> made = new ArrayList<>();
        // Shared by the connections, lent only while a response is being read: a pool of thousands of idle or
        // waiting connections holds no head or body buffer.
        final int connectionCount = hosts.length * config.connectionsPerHost();
        this.heads = ReactorPool.directBuffers(config.maxResponseHeadSize(), connectionCount);
        this.bodies = ReactorPool.directBuffers(config.maxBodySize(), connectionCount);
        for (final String host : hosts)
        {
            made.addAll(connectionsTo(host, HttpUrl.parseAuthority(host, -1)));
        }
        connections = made.toArray(new ClientConnection[0]);
        writeCapacity = connections[0].writeBufferCapacity();
        this.maxExchanges = config.maxPendingRequests();
        this.maxRequestSize = config.maxRequestSize();
    }

    /**
     * Starts connecting to every host, from any thread.
     *
     * @return this.
     */
    public HttpClient open()
    {
        reactor.execute(() ->
        {
            opened = true;
            for (final ClientConnection connection : connections)
            {
                connection.open();
            }
            sweepTimer = reactor.schedule(sweepMillis, this);
        });
        return this;
    }

    /**
     * Adds a host, from any thread (through the reactor's queue): its connections open and take requests as
     * they connect. A host already in the pool is not added twice.
     *
     * @param host {@code host:port} ({@code [v6]:port} for an IPv6 address).
     * @throws IllegalArgumentException for a malformed host, at once on the calling thread.
     */
    public void addHost(final String host)
    {
        final HttpUrl.Authority authority = HttpUrl.parseAuthority(host, -1);
        reactor.execute(() ->
        {
            if (closed || hosts.contains(host))
            {
                return;
            }
            final List<ClientConnection> joining = connectionsTo(host, authority);
            final ClientConnection[] before = connections;
            final ClientConnection[] after = Arrays.copyOf(before, before.length + joining.size());
            for (int i = 0; i < joining.size(); i++)
            {
                after[before.length + i] = joining.get(i);
            }
            connections = after;
            final List<String> grown = new ArrayList<>(hosts);
            grown.add(host);
            hosts = List.copyOf(grown);
            if (opened)
            {
                for (final ClientConnection connection : joining)
                {
                    connection.open();
                }
            }
        });
    }

    /**
     * Removes a host, from any thread (through the reactor's queue): it takes no new request; each of its
     * connections closes once the requests it carries are answered, and a request on a connection lost
     * meanwhile is retried or failed as on any loss. An unknown host is ignored. With no host left, requests
     * wait for one to be added, up to the response timeout.
     *
     * @param host {@code host:port}, as given.
     */
    public void removeHost(final String host)
    {
        reactor.execute(() ->
        {
            if (!hosts.contains(host))
            {
                return;
            }
            final List<String> shrunk = new ArrayList<>(hosts);
            shrunk.remove(host);
            hosts = List.copyOf(shrunk);
            for (final ClientConnection connection : connections)
            {
                if (connection.host().equals(host))
                {
                    connection.retire();
                }
            }
        });
    }

    /**
     * The hosts in the pool now, in the order they joined; from any thread. A removed host's connections may
     * still be finishing their requests.
     *
     * @return {@code host:port} of each.
     */
    public List<String> hosts()
    {
        return hosts;
    }

    /**
     * Begins a request; fill it and {@link HttpClientRequest#send} it before beginning another. Reactor thread
     * only (checked when the reactor checks threads, {@code ReactorConfig#checkThreads}). When {@link HttpClientConfig#maxPendingRequests} are pending, the request is rejected at send.
     *
     * @param method the method, not CONNECT.
     * @param target the path and query ({@code /a/b?c=d}), visible ASCII, percent-encoded.
     * @return the reused request flyweight.
     * @throws IllegalArgumentException for a bad method or target.
     */
    public HttpClientRequest request(final HttpMethod method, final CharSequence target)
    {
        reactor.checkThread("HttpClient.request");
        builder.abandon();
        if (free == null && exchanges < maxExchanges && !closed)
        {
            // Made on first need and pooled for good: memory follows the requests actually pending at once.
            free = new Exchange(maxRequestSize);
            exchanges++;
        }
        final Exchange claimed = closed ? null : free;
        if (claimed != null)
        {
            free = claimed.next;
            claimed.clear();
        }
        return builder.begin(claimed, method, target);
    }

    /**
     * Requests sent and not yet ended, in flight or waiting; exact on the reactor thread.
     *
     * @return the count.
     */
    public int pendingRequests()
    {
        return pending;
    }

    /**
     * Connections open now; exact on the reactor thread.
     *
     * @return the count.
     */
    public int openConnections()
    {
        int open = 0;
        for (final ClientConnection connection : connections)
        {
            open += connection.isOpen() ? 1 : 0;
        }
        return open;
    }

    /**
     * The reactor that runs the client and its listeners.
     *
     * @return the reactor.
     */
    public Reactor reactor()
    {
        return reactor;
    }

    /**
     * Closes every connection and fails every pending request ({@link HttpClientException.Reason#REJECTED}), from
     * any thread.
     */
    @Override
    public void close()
    {
        reactor.execute(() ->
        {
            if (closed)
            {
                return;
            }
            closed = true;
            if (sweepTimer != -1)
            {
                reactor.cancelTimer(sweepTimer);
                sweepTimer = -1;
            }
            failQueued(HttpClientException.Reason.REJECTED, "failed: the client closed", null);
            for (final ClientConnection connection : connections)
            {
                connection.close("the client closed");
            }
        });
    }

    @Override
    public void onTimer(final long timerId, final long nowMillis)
    {
        sweepTimer = closed ? -1 : reactor.schedule(sweepMillis, this);
        for (final ClientConnection connection : connections)
        {
            connection.checkTimeout(nowMillis);
        }
        expireQueued(nowMillis);
    }

    @Override
    public String toString()
    {
        return "HttpClient" + hosts;
    }

    /** Response head buffers given back and waiting to be lent again; for tests, on the reactor thread. */
    int headBuffersKept()
    {
        return heads.kept();
    }

    /** Response body buffers given back and waiting to be lent again; for tests, on the reactor thread. */
    int bodyBuffersKept()
    {
        return bodies.kept();
    }

    boolean isClosed()
    {
        return closed;
    }

    /** A retired connection carries nothing more: forgets it. */
    void forget(final ClientConnection gone)
    {
        idleChanged(gone, false);
        final ClientConnection[] before = connections;
        final ClientConnection[] after = new ClientConnection[before.length - 1];
        int at = 0;
        for (final ClientConnection connection : before)
        {
            if (connection != gone)
            {
                after[at++] = connection;
            }
        }
        connections = after;
        next = 0;
    }

    private List<ClientConnection> connectionsTo(final String host, final HttpUrl.Authority authority)
    {
        final int id = nextHostId++;
        final List<ClientConnection> made = new ArrayList<>();
        for (int i = 0; i < config.connectionsPerHost(); i++)
        {
            made.add(new ClientConnection(
                this, reactor, id, host, authority.host(), authority.port(), config, heads, bodies));
        }
        return made;
    }

    /** Takes a request from the flyweight: sends it now if a connection can take it, else queues it. */
    void send(final Exchange exchange)
    {
        if (closed || exchange.overflow || exchange.length() + 256 > writeCapacity)
        {
            final String why = closed ? "the client is closed" : exchange + " is larger than maxRequestSize";
            final ResponseListener listener = exchange.listener;
            final long tag = exchange.tag;
            exchange.next = free;
            free = exchange;
            reject(listener, tag, why);
            return;
        }
        pending++;
        exchange.deadline = reactor.nowMillis() + responseTimeoutMillis;
        exchange.sentNanos = Counters.enabled() ? System.nanoTime() : 0;
        if (retryHead != null || waitingHead != null || !dispatch(exchange))
        {
            if (waitingTail == null)
            {
                waitingHead = exchange;
            }
            else
            {
                waitingTail.next = exchange;
            }
            waitingTail = exchange;
        }
    }

    /** Sends a request that a lost connection hands back, ahead of new ones. */
    void requeue(final Exchange exchange)
    {
        retried.increment();
        exchange.next = null;
        if (retryTail == null)
        {
            retryHead = exchange;
        }
        else
        {
            retryTail.next = exchange;
        }
        retryTail = exchange;
    }

    /**
     * Sends an idempotent request again after its connection was lost, ahead of new ones, with the response
     * timeout afresh: a request that was pipelined behind one that timed out would otherwise reach a healthy
     * connection with its time already spent, fail there at once and take that connection down with it.
     */
    void retry(final Exchange exchange)
    {
        exchange.deadline = reactor.nowMillis() + responseTimeoutMillis;
        requeue(exchange);
    }

    /** Sends queued requests, oldest first, while connections can take them. */
    void dispatchWaiting()
    {
        while (retryHead != null && dispatch(retryHead))
        {
            final Exchange sent = retryHead;
            retryHead = retryHead.next;
            retryTail = retryHead == null ? null : retryTail;
            sent.next = null;
        }
        while (retryHead == null && waitingHead != null && dispatch(waitingHead))
        {
            final Exchange sent = waitingHead;
            waitingHead = waitingHead.next;
            waitingTail = waitingHead == null ? null : waitingTail;
            sent.next = null;
        }
    }

    /** A connect attempt failed: when none is open or connecting, queued requests fail instead of waiting. */
    void connectFailed(final ClientConnection failed)
    {
        for (final ClientConnection connection : connections)
        {
            if (connection.isOpen() || connection.isConnecting())
            {
                return;
            }
        }
        final Throwable cause = failed.lastError();
        failQueued(HttpClientException.Reason.CONNECT_FAILED, "failed: cannot connect to " + hosts +
            (cause == null ? "" : ": " + cause.getMessage()), cause);
    }

    /** Times a request that got its response, from when it was handed to the client, retries and waits included. */
    void answered(final Exchange exchange)
    {
        if (Counters.enabled())
        {
            latency.record(System.nanoTime() - exchange.sentNanos);
        }
    }

    /** Ends a request with a failure and returns its exchange to the pool. */
    void fail(final Exchange exchange, final HttpClientException.Reason reason, final String why, final Throwable cause)
    {
        final ResponseListener listener = exchange.listener;
        final long tag = exchange.tag;
        failed.increment();
        release(exchange);
        try
        {
            listener.error(new HttpClientException(reason, tag, why, cause));
        }
        catch (final Throwable t)
        {
            System.getLogger(HttpClient.class.getName()).log(System.Logger.Level.WARNING, "failure listener threw", t);
        }
    }

    /**
     * Fails a request that never became pending, at once; but one rejected from inside a rejection's listener
     * waits for the next reactor cycle, so that a listener sending again on each rejection neither grows the
     * stack without bound nor holds the reactor.
     */
    void reject(final ResponseListener listener, final long tag, final String why)
    {
        final HttpClientException failure = new HttpClientException(HttpClientException.Reason.REJECTED, tag, why, null);
        if (rejecting)
        {
            deferredRejections.add(listener);
            deferredRejections.add(failure);
            if (!rejectionsScheduled)
            {
                rejectionsScheduled = true;
                reactor.schedule(0, deliverRejections);
            }
            return;
        }
        rejecting = true;
        try
        {
            listener.error(failure);
        }
        finally
        {
            rejecting = false;
        }
    }

    /** Delivers the rejections deferred until now; those they cause wait for the next cycle in turn. */
    private void deliverDeferredRejections()
    {
        rejectionsScheduled = false;
        for (int n = deferredRejections.size() / 2; n > 0; n--)
        {
            final ResponseListener listener = (ResponseListener)deferredRejections.poll();
            final HttpClientException failure = (HttpClientException)deferredRejections.poll();
            rejecting = true;
            try
            {
                listener.error(failure);
            }
            catch (final Throwable t)
            {
                System.getLogger(HttpClient.class.getName()).log(System.Logger.Level.WARNING, "failure listener threw", t);
            }
            finally
            {
                rejecting = false;
            }
        }
    }

    /** Returns an exchange to the pool; one that was sent stops counting as pending. */
    void release(final Exchange exchange)
    {
        if (exchange.deadline != 0)
        {
            pending--;
            exchange.deadline = 0;
        }
        exchange.listener = null;
        exchange.next = free;
        free = exchange;
    }

    /**
     * Keeps the list of open connections with nothing in flight, oldest idle first: a request goes to its head
     * without looking at every connection (ping-pong on thousands of connections), and idle connections take
     * turns, as ties do in the scan.
     */
    void idleChanged(final ClientConnection connection, final boolean idle)
    {
        if (connection.idle == idle)
        {
            return;
        }
        connection.idle = idle;
        if (idle)
        {
            connection.idlePrev = idleTail;
            connection.idleNext = null;
            if (idleTail == null)
            {
                idleHead = connection;
            }
            else
            {
                idleTail.idleNext = connection;
            }
            idleTail = connection;
            return;
        }
        final ClientConnection before = connection.idlePrev;
        final ClientConnection after = connection.idleNext;
        if (before == null)
        {
            idleHead = after;
        }
        else
        {
            before.idleNext = after;
        }
        if (after == null)
        {
            idleTail = before;
        }
        else
        {
            after.idlePrev = before;
        }
        connection.idlePrev = null;
        connection.idleNext = null;
    }

    /**
     * Sends a request on the open connection with the fewest in flight: the oldest idle one when there is one,
     * found without looking at every connection. A retry skips the host that lost it, whose other connections may
     * be dying unseen, while another host has a connection open: it waits for one of those rather than risk its
     * last attempt there.
     */
    private boolean dispatch(final Exchange exchange)
    {
        final int suspect = exchange.suspectHost;
        final ClientConnection idle = idleHead;
        if (idle != null && idle.hostIndex() != suspect && idle.canTake(exchange))
        {
            idle.transmit(exchange); // nothing in flight: none has fewer
            return true;
        }
        ClientConnection best = pick(exchange, suspect);
        if (best == null && suspect >= 0 && !otherHostOpen(suspect))
        {
            best = pick(exchange, -1);
        }
        if (best == null)
        {
            return false;
        }
        next = next + 1 >= connections.length ? 0 : next + 1; // ties go round the hosts
        best.transmit(exchange);
        return true;
    }

    private ClientConnection pick(final Exchange exchange, final int skippedHost)
    {
        final ClientConnection[] connections = this.connections;
        final int n = connections.length;
        ClientConnection best = null;
        for (int i = 0; i < n; i++)
        {
            final ClientConnection candidate = connections[(next + i) % n];
            if (candidate.hostIndex() != skippedHost && candidate.canTake(exchange) &&
                (best == null || candidate.inFlight() < best.inFlight()))
            {
                best = candidate;
            }
        }
        return best;
    }

    private boolean otherHostOpen(final int host)
    {
        for (final ClientConnection connection : connections)
        {
            if (connection.hostIndex() != host && connection.isOpen())
            {
                return true;
            }
        }
        return false;
    }

    /** Detaches the queued requests whose deadline passed, then fails them: listeners may send again meanwhile. */
    private void expireQueued(final long nowMillis)
    {
        Exchange expired = null;
        for (int queue = 0; queue < 2; queue++)
        {
            Exchange kept = null;
            Exchange keptTail = null;
            Exchange at = queue == 0 ? retryHead : waitingHead;
            while (at != null)
            {
                final Exchange following = at.next;
                at.next = null;
                if (at.deadline <= nowMillis)
                {
                    at.next = expired;
                    expired = at;
                }
                else if (keptTail == null)
                {
                    kept = keptTail = at;
                }
                else
                {
                    keptTail.next = at;
                    keptTail = at;
                }
                at = following;
            }
            if (queue == 0)
            {
                retryHead = kept;
                retryTail = keptTail;
            }
            else
            {
                waitingHead = kept;
                waitingTail = keptTail;
            }
        }
        failAll(expired, HttpClientException.Reason.RESPONSE_TIMEOUT, "found no connection in time", null);
    }

    private void failQueued(final HttpClientException.Reason reason, final String why, final Throwable cause)
    {
        Exchange all = null;
        for (Exchange at = retryHead; at != null; )
        {
            final Exchange following = at.next;
            at.next = all;
            all = at;
            at = following;
        }
        for (Exchange at = waitingHead; at != null; )
        {
            final Exchange following = at.next;
            at.next = all;
            all = at;
            at = following;
        }
        retryHead = retryTail = waitingHead = waitingTail = null;
        failAll(all, reason, why, cause);
    }

    private void failAll(
        final Exchange first, final HttpClientException.Reason reason, final String why, final Throwable cause)
    {
        Exchange at = first;
        while (at != null)
        {
            final Exchange following = at.next;
            at.next = null;
            fail(at, reason, at + " " + why, cause);
            at = following;
        }
    }
}
