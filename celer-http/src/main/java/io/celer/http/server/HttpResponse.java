package io.celer.http.server;

import static java.nio.charset.StandardCharsets.US_ASCII;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;

import io.celer.http.HeaderField;
import io.celer.http.HttpStatus;
import io.celer.http.internal.Ascii;
import io.celer.tcp.Connection;
import io.celer.tcp.Handler;

/**
 * The response to one request, written straight toward the connection; reused by later requests once
 * complete, so do not keep it past that. Reactor thread only.
 *
 * <p>Set the status, add fields, then finish with one of: {@link #body(byte[])} and its kin (Content-Length is
 * added), {@link #end()} (no body), {@link #beginChunked()} … {@link #endChunked()} (streamed), or
 * {@link #upgrade}. {@code Date}, {@code Server}, the framing fields and {@code Connection} are added for you.
 * A response to HEAD carries the same fields as to GET, without the body. Responses leave in request order:
 * one finished before its turn is held until the earlier ones are sent.
 */
public final class HttpResponse
{
    private static final byte IDLE = 0;
    private static final byte OPEN = 1;
    private static final byte STREAMING = 2;
    private static final byte DONE = 3;
    // What openChunk found: the chunk's bytes go next, nothing is to be sent, or no room now.
    private static final int WRITE = 0;
    private static final int TAKEN = 1;
    private static final int NO_ROOM = 2;
    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] LAST_CHUNK = {'0', '\r', '\n', '\r', '\n'};
    private static final byte[] CONTENT_LENGTH = "Content-Length: ".getBytes(US_ASCII);
    private static final byte[] TRANSFER_CHUNKED = "Transfer-Encoding: chunked\r\n".getBytes(US_ASCII);
    private static final byte[] CONNECTION_CLOSE = "Connection: close\r\n".getBytes(US_ASCII);
    private static final byte[] CONNECTION_KEEP_ALIVE = "Connection: keep-alive\r\n".getBytes(US_ASCII);

    private final ResponsePipeline owner;
    private static final int CHUNK_HEAD_SIZE = 24;

    ByteBuffer head; // lent by the pipeline's recycler; given back only once complete and its connection closed
    private ByteBuffer chunkHead;

    int sequence;
    boolean headRequest;
    boolean closeAfter;
    /** 0 or 1: a byte, as an idle connection keeps its response. */
    byte minorVersion;
    boolean upgradeRequested;
    Handler upgradeTo;
    /** The route a {@link Router} gave it, or {@link #UNMATCHED}; a response no router saw has none. */
    Router router;
    int route;
    /** When the read that completed its request reached the server ({@code System.nanoTime()}), or {@link #UNTIMED}. */
    long readNanos;

    /** The route of a request a {@link Router} matched to none of its routes. */
    static final int UNMATCHED = -1;
    /** The read time of a response refused before its handler saw the request: not timed. */
    static final long UNTIMED = Long.MIN_VALUE;

    private byte state = IDLE;
    private int status;
    private boolean statusSet;
    private boolean sendsBody;
    private boolean chunked;
    private WritableListener writableListener;

    HttpResponse(final ResponsePipeline owner)
    {
        this.owner = owner;
    }

    void open(final int sequence, final boolean headRequest, final boolean closeAfter, final int minorVersion)
    {
        this.sequence = sequence;
        this.headRequest = headRequest;
        this.closeAfter = closeAfter;
        this.minorVersion = (byte)minorVersion;
        this.upgradeTo = null;
        this.upgradeRequested = false;
        this.router = null;
        this.readNanos = UNTIMED;
        this.state = OPEN;
        this.statusSet = false;
        this.writableListener = null;
        this.chunked = false;
        if (head == null)
        {
            // Lent per response, given back once it is sent: an idle connection holds none.
            head = owner.newHead();
        }
        head.clear();
    }

    /** A router took the request: the route's latency histogram times it. */
    void routed(final Router by, final int index)
    {
        router = by;
        route = index;
    }

    boolean isDone()
    {
        return state == DONE;
    }

    /** Sent and given back to the pipeline: no longer this request's. */
    boolean isRetired()
    {
        return state == IDLE;
    }

    boolean isOpen()
    {
        return state == OPEN;
    }

    void release()
    {
        state = IDLE;
        writableListener = null;
    }

    /**
     * The connection this response goes out on.
     *
     * @return the connection.
     */
    public Connection connection()
    {
        return owner.connection();
    }

    /**
     * Whether the response is finished (all handed over, maybe still waiting for its turn).
     *
     * @return true once finished.
     */
    public boolean isComplete()
    {
        return state == DONE || state == IDLE;
    }

    /**
     * Whether the head has been sent: status and fields can no longer change.
     *
     * @return true once the body began.
     */
    public boolean isCommitted()
    {
        return state != OPEN;
    }

    /**
     * Starts the head with a status line, replacing any status and fields set before.
     *
     * @param code 100 to 599; 101 only with {@link #upgrade}.
     * @return this.
     */
    public HttpResponse status(final int code)
    {
        checkOpen();
        final byte[] line = StatusLines.of(code);
        head.clear();
        head.put(line).put(owner.share.date.line());
        final byte[] serverLine = owner.share.serverLine;
        if (serverLine != null)
        {
            head.put(serverLine);
        }
        status = code;
        statusSet = true;
        return this;
    }

    /**
     * Closes the connection once this response is sent: the head says {@code Connection: close} and no request
     * after this one is read. Call before the body.
     *
     * @return this.
     */
    public HttpResponse closeConnection()
    {
        checkOpen();
        closeAfter = true;
        return this;
    }

    /**
     * Adds a field.
     *
     * @param name  a token.
     * @param value text without CR or LF.
     * @return this.
     * @throws IllegalArgumentException if the name is not a token or the value holds CR or LF (response
     *                                  splitting).
     * @throws IllegalStateException    if the head outgrows its buffer.
     */
    public HttpResponse header(final CharSequence name, final CharSequence value)
    {
        Ascii.checkFieldValue(value);
        try
        {
            Ascii.put(openField(name), value);
            head.put(CRLF);
        }
        catch (final BufferOverflowException ex)
        {
            throw headTooLarge();
        }
        return this;
    }

    /**
     * Adds a field encoded beforehand: its bytes are copied, with no checks left to make.
     *
     * @param field the field.
     * @return this.
     * @throws IllegalStateException if the head outgrows its buffer.
     */
    public HttpResponse header(final HeaderField field)
    {
        checkOpen();
        ensureStatus();
        try
        {
            field.writeTo(head);
        }
        catch (final BufferOverflowException ex)
        {
            throw headTooLarge();
        }
        return this;
    }

    /**
     * Adds a field with a decimal value.
     *
     * @param name  a token.
     * @param value the number, not negative.
     * @return this.
     * @throws IllegalArgumentException if the name is not a token or the value is negative.
     */
    public HttpResponse header(final CharSequence name, final long value)
    {
        if (value < 0)
        {
            throw new IllegalArgumentException("a numeric field value must not be negative: " + value);
        }
        try
        {
            Ascii.putDecimal(openField(name), value);
            head.put(CRLF);
        }
        catch (final BufferOverflowException ex)
        {
            throw headTooLarge();
        }
        return this;
    }

    /**
     * Finishes with a body.
     *
     * @param body the bytes.
     */
    public void body(final byte[] body)
    {
        body(body, 0, body.length);
    }

    /**
     * Finishes with part of an array as the body.
     *
     * @param body   the array.
     * @param offset first byte.
     * @param length bytes.
     */
    public void body(final byte[] body, final int offset, final int length)
    {
        checkOpen();
        endHead(length);
        if (sendsBody && length <= head.remaining())
        {
            // A small body rides with the head: one hand-over instead of two.
            head.put(body, offset, length);
            emitHead();
        }
        else
        {
            emitHead();
            if (sendsBody)
            {
                owner.emit(this, body, offset, length);
            }
        }
        finish();
    }

    /**
     * Finishes with a body from a buffer; its position moves to its limit.
     *
     * @param body the bytes between position and limit.
     */
    public void body(final ByteBuffer body)
    {
        checkOpen();
        endHead(body.remaining());
        if (sendsBody && body.remaining() <= head.remaining())
        {
            head.put(body);
            emitHead();
        }
        else
        {
            emitHead();
            if (sendsBody)
            {
                owner.emit(this, body);
            }
        }
        body.position(body.limit());
        finish();
    }

    /**
     * Finishes with text as the body, one byte per char (chars above 255 become {@code ?}).
     *
     * @param body the text.
     */
    public void body(final CharSequence body)
    {
        checkOpen();
        final int length = body.length();
        commitHead(length);
        if (sendsBody)
        {
            emitText(body);
        }
        finish();
    }

    /**
     * Finishes without a body ({@code Content-Length: 0} where a body could be).
     */
    public void end()
    {
        checkOpen();
        commitHead(0);
        finish();
    }

    /**
     * Sends the head for a body streamed with {@link #writeChunk}: chunked for HTTP/1.1, delimited by closing
     * the connection for HTTP/1.0.
     */
    public void beginChunked()
    {
        checkOpen();
        commitHead(-1);
        state = STREAMING;
    }

    /**
     * Whether the response can take about this many bytes more without overflowing the connection's response
     * buffer; when not, wait for {@link #onWritable}.
     *
     * @param bytes the bytes to write.
     * @return true if they would be taken.
     */
    public boolean isWritable(final int bytes)
    {
        return owner.room(this) >= bytes + CHUNK_HEAD_SIZE + 2;
    }

    /**
     * Sends one chunk of a streamed body, or nothing if the response cannot take it now.
     *
     * @param data the bytes between position and limit; moved to the limit when taken.
     * @return false, with the buffer untouched, when it does not fit now: retry on {@link #onWritable}.
     */
    public boolean writeChunk(final ByteBuffer data)
    {
        final int opened = openChunk(data.remaining());
        if (opened == NO_ROOM)
        {
            return false;
        }
        if (opened == WRITE)
        {
            owner.emit(this, data);
            chunkTrailer();
        }
        data.position(data.limit());
        return true;
    }

    /**
     * Sends one chunk from an array.
     *
     * @param data   the array.
     * @param offset first byte.
     * @param length bytes.
     * @return false when it does not fit now: retry on {@link #onWritable}.
     */
    public boolean writeChunk(final byte[] data, final int offset, final int length)
    {
        final int opened = openChunk(length);
        if (opened == WRITE)
        {
            owner.emit(this, data, offset, length);
            chunkTrailer();
        }
        return opened != NO_ROOM;
    }

    /**
     * Sends text as one chunk, one byte per char.
     *
     * @param text the text.
     * @return false when it does not fit now: retry on {@link #onWritable}.
     */
    public boolean writeChunk(final CharSequence text)
    {
        final int opened = openChunk(text.length());
        if (opened == WRITE)
        {
            emitText(text);
            chunkTrailer();
        }
        return opened != NO_ROOM;
    }

    /**
     * Starts a chunk of a streamed body: {@link #WRITE} when its header is out and its bytes go next,
     * {@link #TAKEN} when there is nothing to send (empty, or a HEAD response), {@link #NO_ROOM} when it does not
     * fit now.
     */
    private int openChunk(final int length)
    {
        checkStreaming();
        if (length == 0)
        {
            return TAKEN;
        }
        if (!isWritable(length))
        {
            return NO_ROOM;
        }
        if (!sendsBody)
        {
            return TAKEN;
        }
        chunkHeader(length);
        return WRITE;
    }

    /**
     * Ends a streamed body.
     */
    public void endChunked()
    {
        checkStreaming();
        if (sendsBody && chunked)
        {
            owner.emit(this, LAST_CHUNK, 0, LAST_CHUNK.length);
        }
        finish();
    }

    /**
     * Asks to be told when a refused chunk can be retried.
     *
     * @param listener called on the reactor thread, or null.
     */
    public void onWritable(final WritableListener listener)
    {
        this.writableListener = listener;
    }

    /**
     * Sends the head set with {@code status(101)} and hands the connection to another protocol's handler once
     * this response is sent (see {@link Connection#handler(Handler)}): bytes the peer sent after the request, and
     * all later ones, go to it.
     *
     * @param next the handler of the protocol from then on.
     * @throws IllegalStateException unless the status is 101 and the request asked for an upgrade
     *                               ({@code Connection: upgrade} and {@code Upgrade} in HTTP/1.1).
     */
    public void upgrade(final Handler next)
    {
        checkOpen();
        if (next == null)
        {
            throw new NullPointerException("next");
        }
        if (!statusSet || status != HttpStatus.SWITCHING_PROTOCOLS)
        {
            throw new IllegalStateException("an upgrade needs status 101 set first");
        }
        if (!upgradeRequested)
        {
            // Without it the bytes after the request were read as HTTP already, so no protocol could take them.
            throw new IllegalStateException("the request did not ask for an upgrade");
        }
        upgradeTo = next;
        closeAfter = false;
        commitHead(-2);
        finish();
    }

    void notifyWritable()
    {
        final WritableListener listener = writableListener;
        if (listener != null && state == STREAMING)
        {
            listener.writable(this);
        }
    }

    /** An interim or error head, sent by the server itself. */
    void simple(final int code)
    {
        status(code);
        commitHead(0);
        finish();
    }

    /** Ends the head and sends it; {@code contentLength} as for {@link #endHead}. */
    private void commitHead(final long contentLength)
    {
        endHead(contentLength);
        emitHead();
    }

    /** Ends the head; {@code contentLength} is the body's, -1 for a streamed body, -2 for none (an upgrade). */
    private void endHead(final long contentLength)
    {
        ensureStatus();
        final boolean bodyless = status < 200 || status == HttpStatus.NO_CONTENT || status == HttpStatus.NOT_MODIFIED;
        sendsBody = !headRequest && !bodyless;
        try
        {
            if (!bodyless && contentLength >= 0)
            {
                head.put(CONTENT_LENGTH);
                Ascii.putDecimal(head, contentLength);
                head.put(CRLF);
            }
            else if (!bodyless && contentLength == -1)
            {
                if (minorVersion == 1)
                {
                    chunked = true;
                    head.put(TRANSFER_CHUNKED);
                }
                else
                {
                    closeAfter = true; // HTTP/1.0 has no chunks: the close ends the body
                }
            }
            if (closeAfter)
            {
                head.put(CONNECTION_CLOSE);
                owner.closing(); // an HTTP/1.0 stream, say: requests after this one would get no answer
            }
            else if (minorVersion == 0)
            {
                head.put(CONNECTION_KEEP_ALIVE);
            }
            head.put(CRLF);
        }
        catch (final BufferOverflowException ex)
        {
            throw headTooLarge();
        }
    }

    private void emitHead()
    {
        head.flip();
        owner.emit(this, head);
        head.clear();
    }

    /** Writes a field's name and separator into the head, which may overflow: the callers report it. */
    private ByteBuffer openField(final CharSequence name)
    {
        checkOpen();
        ensureStatus();
        Ascii.checkFieldName(name);
        Ascii.put(head, name);
        return head.put((byte)':').put((byte)' ');
    }

    private void chunkHeader(final int length)
    {
        if (!chunked)
        {
            return;
        }
        if (chunkHead == null)
        {
            chunkHead = ByteBuffer.allocate(CHUNK_HEAD_SIZE);
        }
        chunkHead.clear();
        Ascii.putHex(chunkHead, length);
        chunkHead.put(CRLF).flip();
        owner.emit(this, chunkHead);
    }

    private void chunkTrailer()
    {
        if (chunked)
        {
            owner.emit(this, CRLF, 0, 2);
        }
    }

    private void emitText(final CharSequence text)
    {
        final int length = text.length();
        for (int from = 0; from < length; )
        {
            head.clear();
            final int to = Math.min(length, from + head.capacity());
            Ascii.put(head, text, from, to);
            head.flip();
            owner.emit(this, head);
            from = to;
        }
        head.clear();
    }

    int statusCode()
    {
        return status;
    }

    private void finish()
    {
        state = DONE;
        owner.finished(this);
    }

    private void ensureStatus()
    {
        if (!statusSet)
        {
            status(HttpStatus.OK);
        }
    }

    private void checkOpen()
    {
        if (state != OPEN)
        {
            throw new IllegalStateException(state == STREAMING ? "the response is streaming" :
                "the response is complete");
        }
    }

    private void checkStreaming()
    {
        if (state != STREAMING)
        {
            throw new IllegalStateException("no streamed body begun: call beginChunked() first");
        }
    }

    private IllegalStateException headTooLarge()
    {
        return new IllegalStateException("response head larger than " + head.capacity() +
            " bytes (HttpServerConfig.responseHeadSize)");
    }

    @Override
    public String toString()
    {
        return "HttpResponse[" + sequence + ", status " + status + "]";
    }
}
