package io.celer.http.client;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import io.celer.http.HttpMethod;
import io.celer.reactor.Reactor;
import io.celer.reactor.TimerCallback;
import io.celer.reactor.internal.Logs;
import io.celer.reactor.internal.ReactorPool;
import io.celer.tcp.CloseReason;
import io.celer.tcp.Connection;
import io.celer.tcp.Handler;
import io.celer.tcp.TcpClient;

/**
 * One connection of an {@link HttpClient} to one host: writes requests, keeps those in flight in send order, and
 * matches each response to the oldest (RFC 9112, 9.3.2). When the connection is lost, what was written is retried
 * elsewhere if idempotent and failed otherwise; what the server said it would not process is sent again.
 * The retry avoids this connection's host while another host has a connection open. A connection whose host
 * leaves the pool is retired: it takes no new request and closes for good once its pipeline is empty.
 */
final class ClientConnection implements Handler, TimerCallback
{
    private static final System.Logger LOG = System.getLogger(ClientConnection.class.getName());

    private static final int CONNECTING = 0;
    private static final int OPEN = 1;
    private static final int CLOSING = 2;
    private static final int DOWN = 3;

    private final HttpClient client;
    private final Reactor reactor;
    private final int hostIndex;
    private final String host;
    private final String address;
    private final byte[] hostLine;
    private final TcpClient tcp;
    private final ResponseDecoder decoder;
    private final Exchange[] ring;
    private final long reconnectDelayMillis;

    private Connection connection;
    private int state = DOWN;
    private int head;
    private int count;
    private boolean persistent;
    private Throwable lastError;
    private long reconnectTimer = -1;
    private boolean retiring;
    private boolean retired;

    // The client's list of connections open with nothing in flight, kept here so that joining and leaving it
    // allocate nothing and cost the same at 10 connections as at 10,000.
    boolean idle;
    ClientConnection idlePrev;
    ClientConnection idleNext;

    ClientConnection(
        final HttpClient client, final Reactor reactor, final int hostIndex, final String hostGiven,
        final String host, final int port,
        final HttpClientConfig config, final ReactorPool<ByteBuffer> heads,
        final ReactorPool<ByteBuffer> bodies)
    {
        this.client = client;
        this.reactor = reactor;
        this.hostIndex = hostIndex;
        this.host = hostGiven;
        this.address = host + ":" + port;
        final String authority = (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
        this.hostLine = ("Host: " + authority + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        this.decoder = new ResponseDecoder(heads, config.maxResponseHeadSize(), bodies, config.maxResponseHeaders());
        this.ring = new Exchange[config.maxPipelineDepth()];
        this.reconnectDelayMillis = config.reconnectDelayMillis();
        this.tcp = new TcpClient(reactor, host, port, config.connectionTcp(), this);
    }

    /** Starts connecting, and reconnecting when lost. */
    void open()
    {
        setState(CONNECTING);
        tcp.open();
    }

    /** Fails what is in flight and closes for good. */
    void close(final String why)
    {
        setState(DOWN);
        cancelReconnect();
        abandon(why, null, false);
        tcp.close();
    }

    /** Takes no new request from now on, and closes for good once none is in flight. */
    void retire()
    {
        if (retiring)
        {
            return;
        }
        retiring = true;
        client.idleChanged(this, false);
        cancelReconnect();
        if (count == 0)
        {
            finishRetiring();
        }
    }

    /** Requests written and not yet answered. */
    int inFlight()
    {
        return count;
    }

    boolean isOpen()
    {
        return state == OPEN;
    }

    boolean isConnecting()
    {
        return state == CONNECTING;
    }

    /** Which of the client's hosts this connects to, by the number it got when it joined. */
    int hostIndex()
    {
        return hostIndex;
    }

    /** The host as the pool was given it. */
    String host()
    {
        return host;
    }

    String address()
    {
        return address;
    }

    Throwable lastError()
    {
        return lastError;
    }

    /** The write buffer's size: a request larger than it can never be sent. */
    int writeBufferCapacity()
    {
        return tcp.connection().writeBufferCapacity();
    }

    /**
     * Whether a request can go out now: open, pipeline not full (one at a time until the server is known to keep
     * connections open, RFC 9112, 9.3.2), and room for all of it in the write buffer.
     */
    boolean canTake(final Exchange exchange)
    {
        return state == OPEN && !retiring && count < (persistent ? ring.length : 1) &&
            connection.writeBufferRemaining() >= exchange.length() + hostLine.length;
    }

    /** Writes a request, which {@link #canTake} allowed; the reactor flushes it at the end of the cycle. */
    void transmit(final Exchange exchange)
    {
        final Connection c = connection;
        c.write(exchange.head());
        if (exchange.hostSet)
        {
            c.write(hostLine, hostLine.length - 2, 2);
        }
        else
        {
            c.write(hostLine);
        }
        final ByteBuffer body = exchange.body();
        if (body.hasRemaining())
        {
            c.write(body);
        }
        exchange.attempts++;
        ring[(head + count) % ring.length] = exchange;
        count++;
        client.idleChanged(this, false);
    }

    /** Fails the oldest request if its deadline passed, and closes: later responses could no longer be matched. */
    void checkTimeout(final long nowMillis)
    {
        if (count > 0 && ring[head].deadline <= nowMillis && (state == OPEN || state == CLOSING))
        {
            final Exchange late = pop();
            client.fail(late, HttpClientException.Reason.RESPONSE_TIMEOUT,
                late + " got no whole response from " + address + " in time", null);
            shutDown("the connection was closed after an earlier request's response timed out", true);
        }
    }

    @Override
    public void opened(final Connection opened)
    {
        connection = opened;
        setState(OPEN);
        persistent = false;
        lastError = null;
        decoder.reset();
        client.dispatchWaiting();
    }

    @Override
    public void message(final Connection from, final ByteBuffer data)
    {
        while (state == OPEN && data.hasRemaining())
        {
            if (count == 0)
            {
                protocolError("bytes from the server with no request in flight");
                return;
            }
            final Exchange oldest = ring[head];
            final int result = decoder.decode(data, oldest.method == HttpMethod.HEAD, oldest.listener);
            if (result == ResponseDecoder.COMPLETE)
            {
                complete();
            }
            else if (result == ResponseDecoder.ERROR)
            {
                protocolError(decoder.error().message());
                return;
            }
            else
            {
                return;
            }
        }
        data.position(data.limit()); // after a close: nothing more is read
    }

    @Override
    public void writable(final Connection lagging, final int freeBytes)
    {
        client.dispatchWaiting();
    }

    @Override
    public void error(final Connection failed, final Throwable error)
    {
        lastError = error;
    }

    @Override
    public void closed(final Connection lost, final CloseReason reason)
    {
        final boolean wasConnected = state == OPEN || state == CLOSING;
        // Only an orderly close ends a body delimited by the close; after a reset it may be cut short.
        if (state == OPEN && count > 0 && reason == CloseReason.PEER_CLOSED &&
            decoder.closed(ring[head].listener) == ResponseDecoder.COMPLETE)
        {
            complete();
        }
        setState(DOWN);
        connection = null;
        abandon("the connection to " + address + " closed (" + reason + ") before the response", lastError, true);
        if (client.isClosed())
        {
            return;
        }
        if (retiring)
        {
            finishRetiring();
            client.dispatchWaiting();
            return;
        }
        if (!wasConnected)
        {
            client.connectFailed(this);
        }
        else if (reason == CloseReason.LOCAL_CLOSE && !client.isClosed())
        {
            // The TCP client reconnects by itself only after a loss it did not ask for.
            cancelReconnect();
            reconnectTimer = reactor.schedule(reconnectDelayMillis, this);
        }
        client.dispatchWaiting();
    }

    @Override
    public void onTimer(final long timerId, final long nowMillis)
    {
        reconnectTimer = -1;
        if (!client.isClosed() && !retiring)
        {
            setState(CONNECTING);
            tcp.open();
        }
    }

    /**
     * Ends the oldest request. Its slot is freed and the pipeline advanced before the listener runs, so that a
     * listener sending its next request (ping-pong) finds room even when every slot was in use; a connection the
     * server closes takes no new request meanwhile, and is shut down once the listener is done with the response.
     */
    private void complete()
    {
        final Exchange done = pop();
        final HttpClientResponse response = decoder.response();
        final boolean keepAlive = response.isKeepAlive();
        final ResponseListener listener = done.listener;
        persistent = keepAlive;
        response.tag = done.tag;
        client.answered(done);
        final boolean closing = !keepAlive && state == OPEN;
        client.release(done);
        if (closing)
        {
            setState(CLOSING);
        }
        else
        {
            client.dispatchWaiting();
        }
        try
        {
            listener.response(response);
        }
        catch (final Throwable t)
        {
            Logs.log(LOG, System.Logger.Level.WARNING, "a response listener threw", t);
        }
        decoder.release();
        if (closing && state == CLOSING)
        {
            // RFC 9112, 9.6: the server processes nothing after its "close", so what follows is sent again.
            shutDown("the server closed the connection", false);
        }
        else if (retiring && count == 0)
        {
            finishRetiring();
        }
    }

    /** Closes for good and leaves the pool; its pipeline is empty. */
    private void finishRetiring()
    {
        if (retired)
        {
            return;
        }
        retired = true;
        setState(DOWN);
        tcp.close();
        client.forget(this);
    }

    private void protocolError(final String why)
    {
        final Exchange oldest = count > 0 ? pop() : null;
        if (oldest != null)
        {
            client.fail(oldest, HttpClientException.Reason.PROTOCOL_ERROR,
                "bad response from " + address + " to " + oldest + ": " + why, null);
        }
        Logs.log(LOG, System.Logger.Level.DEBUG, "closing " + address + ": " + why);
        shutDown("the connection was closed after a malformed response: " + why, true);
    }

    /** Stops using the connection: hands its requests on (see {@link #abandon}) and closes it. */
    private void shutDown(final String why, final boolean written)
    {
        setState(CLOSING);
        abandon(why, null, written);
        connection.close();
    }

    /**
     * Empties the pipeline. Requests the server may have seen are retried once on another connection if
     * idempotent (RFC 9110, 9.2.2) and fail otherwise; requests it did not process are sent again.
     *
     * @param written whether the server may have seen them.
     */
    private void abandon(final String why, final Throwable cause, final boolean written)
    {
        final boolean oldestStarted = decoder.hasDelivered();
        decoder.reset();
        for (int i = 0; count > 0; i++)
        {
            final Exchange lost = pop();
            final boolean delivered = i == 0 && oldestStarted;
            if (client.isClosed())
            {
                client.fail(lost, HttpClientException.Reason.REJECTED, "the client closed", cause);
            }
            else if (!written)
            {
                lost.attempts--; // not processed: this attempt does not count
                client.requeue(lost);
            }
            else if (!delivered && lost.isIdempotent() && lost.attempts < 2)
            {
                // The host's other connections may be dying too, unseen yet: the retry goes elsewhere if it can.
                lost.suspectHost = hostIndex;
                client.retry(lost);
            }
            else
            {
                client.fail(lost, HttpClientException.Reason.CONNECTION_CLOSED, lost + ": " + why, cause);
            }
        }
    }

    private Exchange pop()
    {
        final Exchange oldest = ring[head];
        ring[head] = null;
        head = (head + 1) % ring.length;
        count--;
        client.idleChanged(this, state == OPEN && !retiring && count == 0);
        return oldest;
    }

    private void setState(final int next)
    {
        state = next;
        client.idleChanged(this, next == OPEN && !retiring && count == 0);
    }

    private void cancelReconnect()
    {
        if (reconnectTimer != -1)
        {
            reactor.cancelTimer(reconnectTimer);
            reconnectTimer = -1;
        }
    }

    @Override
    public String toString()
    {
        return "ClientConnection[" + address + ", in flight " + count + "]";
    }
}
