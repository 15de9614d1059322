package io.celer.websocket.internal;

import java.nio.ByteBuffer;

import io.celer.reactor.internal.StallCulprit;
import io.celer.tcp.CloseReason;
import io.celer.tcp.Connection;
import io.celer.tcp.Handler;
import io.celer.websocket.deflate.DeflateParameters;
import io.celer.websocket.CloseCode;
import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketConfig;
import io.celer.websocket.WebSocketHandler;

/**
 * The WebSocket protocol on one connection, after the opening handshake however it was done: decodes frames from
 * the bytes read, reassembles (or streams) messages to a {@link WebSocketHandler}, answers pings, runs the close
 * handshake, and sends frames for the application through the {@link WebSocket} interface. Its parts: a
 * {@link MessageAssembler} takes in messages, a {@link FrameWriter} encodes and writes frames, a {@link Compression}
 * inflates and deflates them.
 *
 * <p>It is the connection's core {@link Handler} once the handshake is done: whoever did the handshake hands the
 * connection to it ({@link Connection#handler(Handler)}), and from then on the connection's read reaches the
 * frame decoder in one call. Its connection must use raw framing, so that a partial frame stays for the next
 * read. It arms the connection's event timeout while closing. Everything runs on the reactor thread; after
 * warm-up (the reassembly buffer grown to the largest message) nothing allocates.
 *
 * <p>A send that does not fit the write buffer returns false only on a connection configured not to disconnect
 * on a full write buffer ({@link io.celer.tcp.TcpConfig#disconnectOnFullWriteBuffer}); then
 * {@link WebSocketHandler#writable} says when to go on.
 */
public final class WebSocketSession implements WebSocket, Handler, FrameListener, StallCulprit
{
    private final boolean server;
    private final WebSocketConfig config;
    private final WebSocketHandler handler;
    /**
     * Lent by this thread's decoders while a frame or a fragmented message is partly read: a session between
     * messages holds none.
     */
    private FrameDecoder decoder;
    private boolean decoding;
    private final FrameWriter writer;
    /**
     * Made for the first message that comes in more than one chunk (fragments, a frame split across reads) or
     * compressed: a session whose messages all come whole holds none.
     */
    private MessageAssembler assembler;
    /** Made when a close frame is sent or received: an idle session holds none. */
    private CloseHandshake handshake;
    /** This thread's text view and close reason validator, from when it opens. */
    private CallbackScratch scratch;
    /** Made when permessage-deflate is negotiated: a session without it holds none. */
    private Compression compression;

    private Connection connection;
    private WebSocketCounters counters;
    private Object attachment;
    private String path = "/";
    private String subprotocol;
    private boolean open;
    private boolean closeFinished;
    private boolean closedNotified;
    private int failCode;
    private boolean pingOutstanding;
    /**
     * A liveness ping's payload: none. Shared by every session, since a buffer of no bytes has no state to share
     * (position and limit stay 0), which saves each idle connection its own.
     */
    private static final ByteBuffer NO_PAYLOAD = ByteBuffer.allocate(0);

    /** Whether the session paused the connection's reads to inflate the rest of a message in a later cycle. */
    private boolean inflationPaused;

    private boolean messageCompressed;
    private boolean messageText;
    private boolean frameFin;
    private boolean sendingFragments;

    private WebSocketSession(final boolean server, final WebSocketConfig config, final WebSocketHandler handler,
        final MaskKeys keys)
    {
        this.server = server;
        this.config = config;
        this.handler = handler;
        this.writer = new FrameWriter(keys);
    }

    /**
     * A stall in this connection's work names the application's WebSocket handler.
     *
     * @return the handler.
     */
    @Override
    public Object culprit()
    {
        return handler;
    }

    /**
     * A server's session: it requires masked frames and sends unmasked ones.
     *
     * @param config  its settings.
     * @param handler the application.
     * @return the session, not yet open.
     */
    public static WebSocketSession server(final WebSocketConfig config, final WebSocketHandler handler)
    {
        return new WebSocketSession(true, config, handler, null);
    }

    /**
     * A client's session: it refuses masked frames and masks its own with keys from a securely seeded generator.
     *
     * @param config  its settings.
     * @param handler the application.
     * @return the session, not yet open.
     */
    public static WebSocketSession client(final WebSocketConfig config, final WebSocketHandler handler)
    {
        return new WebSocketSession(false, config, handler, new MaskKeys());
    }

    /**
     * Turns on permessage-deflate as negotiated in the handshake, at the default level; before it opens.
     *
     * @param parameters the agreed parameters.
     * @return this.
     */
    public WebSocketSession compression(final DeflateParameters parameters)
    {
        return compression(parameters, Compression.defaultLevel());
    }

    /**
     * Turns on permessage-deflate as negotiated in the handshake; before it opens.
     *
     * @param parameters the agreed parameters.
     * @param level      the DEFLATE level, 0 (store) to 9 (smallest), or -1 for the default (6).
     * @return this.
     */
    public WebSocketSession compression(final DeflateParameters parameters, final int level)
    {
        compression = new Compression();
        compression.resume = this::resumeInflation;
        compression.enable(parameters, server, level, config.maxMessageLength(), config.maxInflatePerCycle());
        return this;
    }

    /**
     * Records what the opening handshake settled, for the handler to read; before it opens.
     *
     * @param requestPath the path the client asked for, without the query.
     * @param chosen      the subprotocol agreed on, or null for none.
     * @return this.
     */
    public WebSocketSession agreed(final String requestPath, final String chosen)
    {
        if (requestPath == null || requestPath.isEmpty())
        {
            throw new IllegalArgumentException("the request path is empty");
        }
        this.path = requestPath;
        this.subprotocol = chosen;
        return this;
    }

    /**
     * Starts the session on a connection whose handshake is done, and tells the handler.
     *
     * @param connection the connection; its framing raw.
     */
    @Override
    public void opened(final Connection connection)
    {
        this.connection = connection;
        this.counters = WebSocketCounters.of(connection.reactor().counters());
        this.scratch = CallbackScratch.forCurrentThread();
        writer.open(connection);
        open = true;
        if (config.pingIntervalMillis() > 0)
        {
            connection.setReadTimeout(config.pingIntervalMillis());
        }
        handler.opened(this);
    }

    /**
     * The peer was silent for the ping interval: a ping asks whether it is still there, and a second silence
     * fails the connection.
     *
     * @param c         the connection.
     * @param nowMillis the reactor clock.
     */
    @Override
    public void readTimeout(final Connection c, final long nowMillis)
    {
        if (!open)
        {
            return;
        }
        if (pingOutstanding)
        {
            failCode = CloseCode.ABNORMAL;
            connection.close(); // no close frame: a peer that does not answer a ping would not answer that either
            return;
        }
        pingOutstanding = true;
        ping(NO_PAYLOAD.clear());
        flush();
    }

    /**
     * Decodes the bytes read, delivering what they complete; leaves a partial frame header unconsumed.
     *
     * @param c      the connection.
     * @param buffer the bytes between position and limit; position moves past what was consumed.
     */
    @Override
    public void message(final Connection c, final ByteBuffer buffer)
    {
        pingOutstanding = false;
        if (!open || decoder != null && decoder.failure() != 0)
        {
            buffer.position(buffer.limit());
            return;
        }
        if (decoder == null)
        {
            decoder = scratch.decoders.take(server, config, compression != null);
        }
        final int result;
        decoding = true;
        try
        {
            result = decoder.decode(buffer, this);
        }
        finally
        {
            decoding = false;
        }
        if (!open || decoder.isBetweenMessages())
        {
            giveBackDecoder(); // kept only through a message in parts: an idle session holds no decoder
        }
        if (result == PAUSE)
        {
            pauseInflation();
        }
        else if (result != 0)
        {
            // Nothing after a close frame or a failure is read.
            buffer.position(buffer.limit());
            if (result > 0)
            {
                fail(result);
            }
        }
    }

    private void giveBackDecoder()
    {
        scratch.decoders.give(decoder);
        decoder = null;
    }

    /**
     * A compressed message spent this cycle's bound on inflation: the connection's reads pause, keeping what was
     * read, and the next cycle resumes them, which delivers the kept bytes again. Reads another party paused
     * already are left to it.
     */
    private void pauseInflation()
    {
        if (!connection.isReadPaused())
        {
            connection.pauseReads();
            inflationPaused = true;
            connection.reactor().internals().runNextCycle(compression.resume); // only compression pauses
        }
    }

    private void resumeInflation()
    {
        if (inflationPaused)
        {
            inflationPaused = false;
            if (open)
            {
                connection.resumeReads();
            }
        }
    }

    /**
     * The connection's event timeout fired: the close handshake took too long, so the connection closes.
     *
     * @param c         the connection.
     * @param nowMillis the reactor clock.
     */
    @Override
    public void eventTimeout(final Connection c, final long nowMillis)
    {
        if (open && handshake != null && (handshake.isSent() || handshake.isReceived()))
        {
            connection.close();
        }
    }

    /**
     * The lagging connection drained some of its write buffer; tells the handler while the WebSocket is open.
     *
     * @param c         the connection.
     * @param freeBytes room now free in the write buffer.
     */
    @Override
    public void writable(final Connection c, final int freeBytes)
    {
        if (canSend())
        {
            handler.writable(this, freeBytes);
        }
    }

    /**
     * The connection closed; tells the handler once.
     *
     * @param c      the connection.
     * @param reason why.
     */
    @Override
    public void closed(final Connection c, final CloseReason reason)
    {
        open = false;
        if (decoder != null && !decoding)
        {
            giveBackDecoder(); // else once the decoder's call returns
        }
        if (!closedNotified)
        {
            closedNotified = true;
            if (compression != null)
            {
                compression.close();
            }
            if (assembler != null)
            {
                assembler.release();
            }
            final int code = handshake != null && handshake.isReceived() ? handshake.receivedCode() :
                failCode != 0 ? failCode : CloseCode.ABNORMAL;
            WebSocketCounters.of(c.reactor().counters()).closed(code);
            handler.closed(this, code);
        }
    }

    @Override
    public int onDataFrame(final int opcode, final boolean fin, final boolean rsv1, final long payloadLength)
    {
        if (opcode != Opcode.CONTINUATION)
        {
            messageCompressed = rsv1;
            messageText = opcode == Opcode.TEXT;
            if (assembler != null)
            {
                assembler.begin(messageText);
            }
        }
        // The decoder has checked the declared length against the limits; the buffer grows only as bytes arrive,
        // so a header alone cannot make it allocate.
        frameFin = fin;
        return CONTINUE;
    }

    @Override
    public int onPayload(final ByteBuffer payload, final boolean frameEnd)
    {
        final boolean last = frameEnd && frameFin;
        final int result;
        if (messageCompressed)
        {
            result = compression.inflate(assembler(), payload, last, connection.reactor().internals().cycle());
        }
        else if (last && assembler == null)
        {
            // No chunk of this message came before (one would have made the assembler): it is whole here.
            result = MessageAssembler.deliverAlone(this, handler, config, scratch, messageText, payload);
        }
        else
        {
            result = assembler().deliver(payload, last);
        }
        if (last && result == CONTINUE)
        {
            counters.messagesIn.increment();
        }
        return result;
    }

    @Override
    public int onControlFrame(final int opcode, final ByteBuffer payload)
    {
        if (opcode == Opcode.PING)
        {
            final int at = payload.position();
            if (canSend())
            {
                writer.write(Opcode.PONG, true, payload);
                payload.position(at);
            }
            handler.ping(this, payload);
            return CONTINUE;
        }
        if (opcode == Opcode.PONG)
        {
            handler.pong(this, payload);
            return CONTINUE;
        }
        final int invalid = CloseHandshake.check(payload, scratch.utf8);
        if (invalid != 0)
        {
            return invalid;
        }
        final int code = CloseHandshake.code(payload);
        final boolean answer = closeHandshake().closeReceived(code);
        handler.closing(this, code, scratch.text.wrap(payload, Math.min(payload.position() + 2, payload.limit()),
            payload.limit()));
        // The handler may have answered with a code of its own; otherwise echo the peer's.
        if (answer && handshake.sendClose(handshake.answerCode()))
        {
            writeClose(handshake.answerCode(), "");
        }
        finishClose();
        return STOP;
    }

    private void finishClose()
    {
        if (handshake == null || !handshake.isComplete() || closeFinished)
        {
            return;
        }
        closeFinished = true;
        if (server)
        {
            // RFC 6455 7.1.1: the server closes TCP first, so the client does not hold TIME_WAIT.
            connection.close();
        }
        else
        {
            connection.setEventTimeout(config.closeTimeoutMillis());
        }
    }

    /**
     * Fails the connection (RFC 6455 7.1.7): a close frame with the code if none was sent, then closes.
     */
    private void fail(final int code)
    {
        if (failCode == 0)
        {
            failCode = code;
        }
        if (closeHandshake().sendClose(code))
        {
            writeClose(code, "");
        }
        connection.close();
    }

    private void writeClose(final int code, final CharSequence why)
    {
        if (!writer.writeClose(code, why))
        {
            // No room for the close frame: the peer is not reading, so there is no handshake to wait for.
            connection.close();
        }
    }

    private CloseHandshake closeHandshake()
    {
        if (handshake == null)
        {
            handshake = new CloseHandshake();
        }
        return handshake;
    }

    private MessageAssembler assembler()
    {
        if (assembler == null)
        {
            assembler = new MessageAssembler(this, handler, config);
            assembler.open(connection.reactor().internals().largeBuffers(), scratch.text);
            assembler.begin(messageText);
        }
        return assembler;
    }

    private boolean canSend()
    {
        return open && (handshake == null || handshake.canSend());
    }

    private boolean canSendMessage()
    {
        if (sendingFragments)
        {
            throw new IllegalStateException("a fragmented message is being sent");
        }
        return canSend();
    }

    @Override
    public Connection connection()
    {
        return connection;
    }

    @Override
    public boolean isServer()
    {
        return server;
    }

    @Override
    public String path()
    {
        return path;
    }

    @Override
    public String subprotocol()
    {
        return subprotocol;
    }

    @Override
    public boolean isOpen()
    {
        return canSend();
    }

    @Override
    public boolean sendText(final CharSequence text)
    {
        if (!canSendMessage())
        {
            return false;
        }
        return sent(compression != null && compression.isEnabled() ? compression.deflateText(writer, text) :
            writer.write(Opcode.TEXT, true, text));
    }

    private boolean sent(final boolean written)
    {
        if (written)
        {
            counters.messagesOut.increment();
        }
        return written;
    }

    @Override
    public boolean sendText(final ByteBuffer utf8)
    {
        return sendData(Opcode.TEXT, utf8);
    }

    @Override
    public boolean sendBinary(final ByteBuffer data)
    {
        return sendData(Opcode.BINARY, data);
    }

    private boolean sendData(final int opcode, final ByteBuffer data)
    {
        if (!canSendMessage())
        {
            return false;
        }
        return sent(compression != null && compression.isEnabled() ? compression.deflate(writer, opcode, data) :
            writer.write(opcode, true, data));
    }

    @Override
    public boolean sendFragment(final ByteBuffer data, final boolean text, final boolean last)
    {
        if (!canSend())
        {
            return false;
        }
        final int opcode = sendingFragments ? Opcode.CONTINUATION : text ? Opcode.TEXT : Opcode.BINARY;
        if (compression != null && compression.isEnabled())
        {
            return fragmentSent(compression.deflateFragment(writer, opcode, !sendingFragments, last, data), last);
        }
        return fragmentSent(writer.write(opcode, last, data), last);
    }

    @Override
    public boolean sendTextFragment(final CharSequence text, final boolean last)
    {
        if (!canSend())
        {
            return false;
        }
        final int opcode = sendingFragments ? Opcode.CONTINUATION : Opcode.TEXT;
        if (compression != null && compression.isEnabled())
        {
            return fragmentSent(compression.deflateTextFragment(writer, opcode, !sendingFragments, last, text), last);
        }
        return fragmentSent(writer.write(opcode, last, text), last);
    }

    private boolean fragmentSent(final boolean written, final boolean last)
    {
        if (written)
        {
            sendingFragments = !last;
            if (last)
            {
                counters.messagesOut.increment();
            }
        }
        return written;
    }

    @Override
    public boolean ping(final ByteBuffer payload)
    {
        return canSend() && writer.write(Opcode.PING, true, payload);
    }

    @Override
    public boolean pong(final ByteBuffer payload)
    {
        return canSend() && writer.write(Opcode.PONG, true, payload);
    }

    @Override
    public boolean close(final int code, final CharSequence why)
    {
        if (!open || !closeHandshake().sendClose(code))
        {
            return false;
        }
        writeClose(code, why);
        if (handshake.isComplete())
        {
            finishClose();
        }
        else
        {
            connection.setEventTimeout(config.closeTimeoutMillis());
        }
        return true;
    }

    @Override
    public void flush()
    {
        if (open)
        {
            connection.flush();
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T attachment()
    {
        return (T)attachment;
    }

    @Override
    public void attach(final Object attachment)
    {
        this.attachment = attachment;
    }

    /** The staging buffer, cleared and limited to what this connection's write buffer holds. */
    ByteBuffer frames()
    {
        return writer.frames();
    }

    @Override
    public String toString()
    {
        return (server ? "server" : "client") + " WebSocket on " + connection;
    }
}
