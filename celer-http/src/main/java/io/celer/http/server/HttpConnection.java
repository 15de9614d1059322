package io.celer.http.server;

import java.nio.ByteBuffer;

import io.celer.counters.Counters;
import io.celer.http.HttpMethod;
import io.celer.http.HttpStatus;
import io.celer.http.internal.ChunkedDecoder;
import io.celer.reactor.internal.Logs;
import io.celer.reactor.internal.StallCulprit;
import io.celer.tcp.CloseReason;
import io.celer.tcp.Connection;
import io.celer.tcp.Handler;

/**
 * HTTP/1.1 on one server connection, as its core handler: reads requests off the read buffer as they arrive,
 * hands them to the application, and sends the responses in request order. An upgrade hands the connection, and
 * the bytes after the upgrade request, to another protocol's handler, and leaves the connection for good.
 *
 * <p>The connection is its own {@link ResponsePipeline}, which it extends: the state of its requests and of its
 * responses in flight is one object.
 *
 * <p>Reading stops (the core's pauseReads; bytes already read stay buffered and are delivered again on
 * resume) when the peer does not read its responses, when the pipeline is full, while an upgrade is pending,
 * and, for one cycle, after the per-read request budget is spent.
 */
final class HttpConnection extends ResponsePipeline implements Handler, StallCulprit, Runnable
{
    private static final System.Logger LOG = System.getLogger(HttpConnection.class.getName());
    private static final byte[] CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private static final byte HEAD = 0;
    private static final byte HELD_FIXED = 1;
    private static final byte HELD_CHUNKED = 2;
    private static final byte STREAM_FIXED = 3;
    private static final byte STREAM_CHUNKED = 4;
    private static final byte DISCARD = 5;

    // Why the connection is not read now, a bit each in its gate: the peer does not read its responses, every
    // response slot is taken, an upgrade request waits for its answer, the per-read request budget is spent.
    private static final int GATE_WRITE = 1;
    private static final int GATE_PIPELINE = 2;
    private static final int GATE_UPGRADE = 4;
    private static final int GATE_YIELD = 8;

    /** What handled the last request: its route's handler under a router; what a stall names. */
    private HttpHandler lastHandler;
    private final Connection connection;
    /** Lent from the recycler while a request is read and handled; none while the connection idles. */
    private HttpRequest request;
    /**
     * Why the connection is not read now, a {@code GATE_} bit per reason; reading resumes when the last clears. A
     * byte, as every idle connection would otherwise keep an object for it.
     */
    private byte gate;
    /** A response that closes the connection left bytes in the backlog: it closes once they went. */
    private boolean closeWhenDrained;

    /** Where the read of the current request is: a byte, beside the connection's other small fields. */
    private byte phase = HEAD;
    private HttpResponse current;
    private boolean stopAfterCurrent;
    private boolean clockRunning;
    private long requestStartedAt;
    private boolean timerArmed;
    private boolean closed;
    private int pendingUpgrade = -1;
    private boolean upgraded;
    /** When this read reached the server, and when the bytes left over from earlier reads did (0: counters off). */
    private long readNanos;
    private long carriedNanos;
    /** Bytes left unread at the end of the last delivery, and where they end in this one (-1: none). */
    private int carried;
    private int carriedEnd = -1;

    HttpConnection(final ServerShare share, final Connection connection)
    {
        super(share);
        this.connection = connection;
    }

    @Override
    public Connection connection()
    {
        return connection;
    }

    /** A stall in this connection's work names the route's handler that last ran, else the server's handler. */
    @Override
    public Object culprit()
    {
        return lastHandler != null ? lastHandler : share.handler;
    }

    @Override
    public void opened(final Connection c)
    {
        connection.setReadTimeout(share.config.idleTimeoutMillis());
    }

    @Override
    public void message(final Connection c, final ByteBuffer data)
    {
        inRead(true);
        if (Counters.enabled())
        {
            readNanos = System.nanoTime();
            // Bytes left by the last delivery (a pipeline that was full, a half-read request) were read then.
            carriedEnd = carried > 0 ? data.position() + carried : -1;
        }
        try
        {
            parse(data);
        }
        finally
        {
            inRead(false);
            carried = data.remaining();
            if (carried > 0 && data.position() >= carriedEnd)
            {
                carriedNanos = readNanos;
            }
            if (upgraded)
            {
                release(); // the request flyweight was in use until now
            }
            else if (request != null && !closed && phase == HEAD && !headInProgress())
            {
                // Between requests: the table goes back, so that an idle keep-alive connection holds none.
                share.recycler.give(request);
                request = null;
            }
        }
    }

    /** Stops reading for a reason; the first reason pauses the connection's reads. */
    private void closeGate(final int reason)
    {
        if (gate == 0)
        {
            connection.pauseReads();
        }
        gate |= (byte)reason;
    }

    /**
     * A reason to stop reading clears; the last resumes the connection's reads, and the core then delivers again
     * the bytes it already holds (at the end of the reactor cycle) before reading more.
     */
    private void openGate(final int reason)
    {
        if ((gate & reason) == 0)
        {
            return;
        }
        gate &= (byte)~reason;
        if (gate == 0 && connection.isOpen())
        {
            connection.resumeReads();
        }
    }

    /** Stops reading until the reactor has run its queued callbacks: after this cycle's other I/O. */
    private void yieldCycle()
    {
        closeGate(GATE_YIELD);
        if (!connection.reactor().callAsync(this))
        {
            openGate(GATE_YIELD); // queue full: resume at the end of this cycle instead
        }
    }

    /** The end of a {@link #yieldCycle}: the reactor ran the callbacks queued before it. */
    @Override
    public void run()
    {
        openGate(GATE_YIELD);
    }

    /** Whether some of a request's head has been read and not yet all. */
    private boolean headInProgress()
    {
        return request != null && RequestHeadParser.inProgress(request);
    }

    private void parse(final ByteBuffer data)
    {
        int handled = 0;
        // Upgraded while reading: the rest of the read is the new handler's, which the core hands it next.
        while (data.hasRemaining() && gate == 0 && !closed && !upgraded)
        {
            switch (phase)
            {
                case HEAD:
                    if (!headInProgress())
                    {
                        final int skip = RequestHeadParser.leadingEmptyLines(data, data.position(), data.limit());
                        if (skip > 0)
                        {
                            // Skipped, but timed: empty lines must not hold a connection open for free.
                            startRequestClock();
                            data.position(data.position() + skip);
                            continue;
                        }
                        if (handled == share.config.maxRequestsPerRead())
                        {
                            yieldCycle();
                            return;
                        }
                        if (isFull())
                        {
                            closeGate(GATE_PIPELINE);
                            return;
                        }
                    }
                    if (!readHead(data))
                    {
                        return;
                    }
                    handled++;
                    break;
                case HELD_FIXED:
                    if (!readHeldFixed(data))
                    {
                        return;
                    }
                    break;
                case HELD_CHUNKED:
                    if (!readHeldChunked(data))
                    {
                        return;
                    }
                    break;
                case STREAM_FIXED:
                    readStreamFixed(data);
                    break;
                case STREAM_CHUNKED:
                    if (!readStreamChunked(data))
                    {
                        return;
                    }
                    break;
                default:
                    data.position(data.limit()); // after an error or the last request: nothing more is read
                    return;
            }
        }
    }

    private boolean readHead(final ByteBuffer data)
    {
        final int start = data.position();
        if (request == null)
        {
            request = share.recycler.takeRequest();
            RequestHeadParser.reset(request); // a connection that closed mid-head gave it back as it was
        }
        final int status = share.parser.parse(data, start, data.limit(), request);
        if (status == RequestHeadParser.NEED_MORE)
        {
            startRequestClock();
            return false;
        }
        if (status != RequestHeadParser.DONE)
        {
            reject(status);
            return false;
        }
        request.headLength = RequestHeadParser.headLength(request);
        RequestHeadParser.reset(request);
        request.sequence = nextSequence();
        current = openResponse(request.method == HttpMethod.HEAD, !request.isKeepAlive(), request.minorVersion());
        current.upgradeRequested = request.upgrade;
        stopAfterCurrent = !request.isKeepAlive();
        request.received = 0;
        request.held = 0;
        if (request.isChunked())
        {
            // The request table's own, made for its first chunked body: a connection keeps none between requests.
            if (request.chunked == null)
            {
                request.chunked = new ChunkedDecoder(share.config.maxChunkLineLength(),
                    share.config.maxHeaderSectionSize());
            }
            request.chunked.reset();
            request.scan = request.headLength;
            phase = HELD_CHUNKED;
            expectContinue(data, start);
            return true;
        }
        final long length = Math.max(0, request.contentLength());
        if (length > share.config.maxBodySize())
        {
            reject(HttpStatus.CONTENT_TOO_LARGE);
            return false;
        }
        if (length == 0)
        {
            request.bodyStart = request.headLength;
            dispatch(data, start, start + request.headLength);
            data.position(start + request.headLength);
            afterRequest();
            return true;
        }
        if (length <= share.config.maxHeldBodySize())
        {
            phase = HELD_FIXED;
            expectContinue(data, start);
            return true;
        }
        expectContinue(data, start);
        request.bodyComplete = false;
        request.bodyStart = request.headLength;
        request.bodyRemaining = length;
        phase = STREAM_FIXED; // before the handler runs: a failure in it turns the phase to DISCARD for good
        startBodyClock();
        dispatch(data, start, start + request.headLength);
        data.position(start + request.headLength);
        return true;
    }

    private void expectContinue(final ByteBuffer data, final int start)
    {
        if (request.expectContinue && data.limit() - start == request.headLength)
        {
            emit(current, CONTINUE, 0, CONTINUE.length); // only if the body is not already on its way
        }
    }

    private boolean readHeldFixed(final ByteBuffer data)
    {
        final int start = data.position();
        final int length = request.headLength + (int)request.contentLength();
        if (data.limit() - start < length)
        {
            startRequestClock();
            return false;
        }
        request.bodyStart = request.headLength;
        request.bodyLength = (int)request.contentLength();
        dispatch(data, start, start + length);
        data.position(start + length);
        afterRequest();
        return true;
    }

    private boolean readHeldChunked(final ByteBuffer data)
    {
        final ChunkedDecoder decoder = request.chunked;
        final int start = data.position();
        final int end = data.limit();
        int p = start + request.scan;
        while (true)
        {
            p = decoder.decode(data, p, end);
            if (decoder.status() != 0)
            {
                reject(decoder.status());
                return false;
            }
            if (decoder.isDone())
            {
                request.bodyStart = request.headLength;
                request.bodyLength = request.held;
                dispatch(data, start, p);
                data.position(p);
                afterRequest();
                return true;
            }
            final long remaining = decoder.dataRemaining();
            if (remaining == 0 || p == end)
            {
                break;
            }
            final int n = (int)Math.min(remaining, end - p);
            if (request.received + n > share.config.maxBodySize())
            {
                reject(HttpStatus.CONTENT_TOO_LARGE);
                return false;
            }
            if (request.held + n > share.config.maxHeldBodySize())
            {
                // Too large to hold: the handler sees the head now and the body as it comes.
                request.bodyComplete = false;
                request.bodyStart = request.headLength;
                phase = STREAM_CHUNKED;
                startBodyClock();
                dispatch(data, start, p);
                deliver(data, start + request.headLength, start + request.headLength + request.held);
                data.position(p);
                return true;
            }
            Bytes.moveDown(data, p, start + request.headLength + request.held, n);
            request.held += n;
            request.received += n;
            p += n;
            decoder.dataTaken(n);
        }
        request.scan = p - start;
        startRequestClock();
        final int dead = request.scan - request.headLength - request.held;
        if (end == data.capacity() && dead > 0)
        {
            // The buffer is full of chunk framing already read: slide the head and the body over it, so the
            // core can reclaim that space, keeping offsets from the request's start valid.
            final int live = request.headLength + request.held;
            Bytes.moveUp(data, start, start + dead, live);
            data.position(start + dead);
            request.scan = live;
        }
        return false;
    }

    private void readStreamFixed(final ByteBuffer data)
    {
        final int start = data.position();
        final int n = (int)Math.min(request.bodyRemaining, data.limit() - start);
        deliver(data, start, start + n);
        data.position(start + n);
        request.bodyRemaining -= n;
        request.windowBytes += n;
        if (request.bodyRemaining == 0)
        {
            endStream(start + n);
        }
    }

    private boolean readStreamChunked(final ByteBuffer data)
    {
        final ChunkedDecoder decoder = request.chunked;
        final int end = data.limit();
        int p = data.position();
        while (p < end)
        {
            p = decoder.decode(data, p, end);
            if (decoder.status() != 0)
            {
                failStream();
                return false;
            }
            if (decoder.isDone())
            {
                data.position(p);
                endStream(p);
                return true;
            }
            final long remaining = decoder.dataRemaining();
            if (remaining > 0 && p < end)
            {
                final int n = (int)Math.min(remaining, end - p);
                if (request.received + n > share.config.maxBodySize())
                {
                    failStream();
                    return false;
                }
                deliver(data, p, p + n);
                request.received += n;
                request.windowBytes += n;
                p += n;
                decoder.dataTaken(n);
            }
        }
        data.position(p);
        return true;
    }

    private void deliver(final ByteBuffer data, final int from, final int to)
    {
        if (request.streamingTo == null || from == to)
        {
            return;
        }
        final int limit = data.limit();
        data.limit(to).position(from);
        try
        {
            request.streamingTo.body(data);
        }
        catch (final Throwable t)
        {
            handlerFailed(current, t);
        }
        data.limit(limit);
    }

    private void endStream(final int end)
    {
        if (!current.isRetired())
        {
            current.readNanos = readAt(end); // a streamed request's last byte is its body's
        }
        final BodyListener done = request.streamingTo;
        request.streamingTo = null;
        if (done != null)
        {
            try
            {
                done.ended(current);
            }
            catch (final Throwable t)
            {
                handlerFailed(current, t);
            }
        }
        afterRequest();
    }

    /** A streamed body broke its framing or limit after the handler took the request: no status can follow. */
    private void failStream()
    {
        phase = DISCARD;
        stopStreaming();
        closeNow();
    }

    /** No more of a streamed body goes to the handler's listener. */
    private void stopStreaming()
    {
        if (request != null)
        {
            request.streamingTo = null;
        }
    }

    /** The time the read that brought the byte before {@code end} reached the server. */
    private long readAt(final int end)
    {
        return end <= carriedEnd ? carriedNanos : readNanos;
    }

    private void dispatch(final ByteBuffer data, final int start, final int end)
    {
        request.attach(data, start);
        final HttpResponse response = current;
        response.readNanos = readAt(end);
        try
        {
            share.handler.handle(request, response);
        }
        catch (final Throwable t)
        {
            handlerFailed(response, t);
        }
        lastHandler = request.routed;
        request.streamingTo = request.bodyComplete || phase == DISCARD ? null : request.bodyListener;
    }

    private void handlerFailed(final HttpResponse response, final Throwable t)
    {
        Logs.log(LOG, System.Logger.Level.WARNING, "handler failed on " + connection, t);
        if (response != null && response.isOpen())
        {
            phase = DISCARD;
            response.closeAfter = true;
            response.simple(HttpStatus.INTERNAL_SERVER_ERROR);
        }
        else
        {
            closeNow();
        }
    }

    private void afterRequest()
    {
        clockRunning = false;
        current = null;
        if (phase == DISCARD)
        {
            return;
        }
        phase = stopAfterCurrent ? DISCARD : HEAD;
        if (request.upgrade && !upgraded && phase == HEAD && !isEmpty())
        {
            // Until its response is sent, nobody knows which protocol the next bytes speak.
            pendingUpgrade = (int)request.sequence;
            closeGate(GATE_UPGRADE);
        }
    }

    /** Answers with an error status in turn, closes after it, and reads nothing more. */
    private void reject(final int status)
    {
        share.counters.rejection(status);
        phase = DISCARD;
        stopStreaming(); // a timeout between requests may come with no request taken
        clockRunning = false;
        HttpResponse response = current;
        if (response == null || !response.isOpen())
        {
            if (isFull())
            {
                closeNow();
                return;
            }
            response = openResponse(false, true, 1);
        }
        response.closeAfter = true;
        response.simple(status);
    }

    // ---- pipeline events ------------------------------------------------------------------------------------

    @Override
    public void backlogged()
    {
        closeGate(GATE_WRITE);
    }

    @Override
    public void drained()
    {
        if (closeWhenDrained)
        {
            settle();
            connection.close();
            return;
        }
        openGate(GATE_WRITE);
    }

    @Override
    public void overflowed()
    {
        Logs.log(LOG, System.Logger.Level.WARNING, refusedByBudget() ?
            connection + ": no room for a response backlog in the reactor's large buffers (maxLargeBufferBytes), closing" :
            connection + ": more response bytes held than responseBufferSize " + share.config.responseBufferSize() +
                ", closing");
        closeNow();
    }

    @Override
    public void retired(final int sequence)
    {
        if (sequence == pendingUpgrade)
        {
            pendingUpgrade = -1;
            openGate(GATE_UPGRADE);
        }
        openGate(GATE_PIPELINE);
    }

    @Override
    public void closing()
    {
        stopAfterCurrent = true;
        if (phase == HEAD)
        {
            phase = DISCARD;
        }
    }

    @Override
    public void closeAfterResponse()
    {
        phase = DISCARD;
        if (hasBacklog())
        {
            closeWhenDrained = true; // the response's last bytes wait in the backlog: the close comes after them
            return;
        }
        settle();
        connection.close();
    }

    @Override
    public void upgraded(final Handler next)
    {
        upgraded = true;
        phase = DISCARD;
        settle(); // the upgrade's response: this connection hears no more of its socket
        clearTimer();
        pendingUpgrade = -1;
        connection.setReadTimeout(0);
        connection.cancelEventTimeout();
        connection.handler(next);
        openGate(GATE_UPGRADE | GATE_PIPELINE); // bytes held since the upgrade request now go to the new protocol
        if (!isInRead())
        {
            release();
        }
    }

    @Override
    public void batchProcessed(final Connection c)
    {
        settle(); // the flush the read's end would do, now, so that the responses it sends are timed
    }

    @Override
    public void writable(final Connection c, final int freeBytes)
    {
        drainBacklog();
    }

    // ---- timeouts and close ---------------------------------------------------------------------------------

    private void startRequestClock()
    {
        if (!clockRunning)
        {
            clockRunning = true;
            requestStartedAt = connection.reactor().nowMillis();
        }
        if (!timerArmed)
        {
            timerArmed = true;
            connection.setEventTimeout(share.config.requestHeadTimeoutMillis());
        }
    }

    /** A streamed body begins: its rate is measured from now, one window at a time. */
    private void startBodyClock()
    {
        request.windowBytes = 0;
        if (share.config.minBodyBytesPerSecond() > 0)
        {
            timerArmed = true;
            connection.setEventTimeout(share.config.bodyRateWindowMillis());
        }
    }

    /** A window of a streamed body ended: too few bytes, and the request ends; else the next window starts. */
    private void checkBodyRate()
    {
        final long least = share.config.minBodyBytesPerSecond() * share.config.bodyRateWindowMillis() / 1000;
        if (request.windowBytes < least && gate == 0)
        {
            if (current != null && current.isOpen() && !current.isCommitted())
            {
                reject(HttpStatus.REQUEST_TIMEOUT);
            }
            else
            {
                failStream(); // the response has begun: no status can follow
            }
            return;
        }
        // A window in which this side did not read (the peer of a paused gate) proves nothing either way.
        request.windowBytes = 0;
        timerArmed = true;
        connection.setEventTimeout(share.config.bodyRateWindowMillis());
    }

    @Override
    public void eventTimeout(final Connection c, final long nowMillis)
    {
        timerArmed = false;
        if (!closed && (phase == STREAM_FIXED || phase == STREAM_CHUNKED))
        {
            checkBodyRate();
            return;
        }
        if (!clockRunning || closed || (phase != HEAD && phase != HELD_FIXED && phase != HELD_CHUNKED))
        {
            return;
        }
        final long elapsed = nowMillis - requestStartedAt;
        if (elapsed >= share.config.requestHeadTimeoutMillis())
        {
            reject(HttpStatus.REQUEST_TIMEOUT);
        }
        else
        {
            timerArmed = true;
            connection.setEventTimeout(share.config.requestHeadTimeoutMillis() - elapsed);
        }
    }

    @Override
    public void readTimeout(final Connection c, final long nowMillis)
    {
        final boolean idle = phase == HEAD && !headInProgress() && isEmpty() && !hasBacklog();
        if (idle || phase == STREAM_FIXED || phase == STREAM_CHUNKED)
        {
            closeNow(); // an idle keep-alive connection, or a streamed upload gone silent: closed without a word
        }
    }

    private void closeNow()
    {
        phase = DISCARD;
        if (connection.isOpen())
        {
            connection.close();
        }
    }

    @Override
    public void closed(final Connection c, final CloseReason reason)
    {
        release(); // nothing reads the request after the close; the handler's call, if in one, is the last
    }

    @Override
    public void error(final Connection c, final Throwable error)
    {
        Logs.log(LOG, System.Logger.Level.DEBUG, c + " failed", error);
    }

    /** The connection closed or went to another protocol: its HTTP state goes back for the next connection. */
    private void release()
    {
        phase = DISCARD;
        if (!closed)
        {
            closed = true;
            closeResponses();
            stopStreaming(); // the handler's listener is not kept for the next connection's request
            if (request != null)
            {
                share.recycler.give(request);
                request = null;
            }
        }
    }
}
