package io.celer.websocket.internal;

import java.nio.ByteBuffer;

import io.celer.reactor.internal.LargeBufferBudget;
import io.celer.websocket.CloseCode;
import io.celer.websocket.Utf8Text;
import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketConfig;
import io.celer.websocket.WebSocketHandler;

/**
 * The receiving half of a session: takes a message's (inflated) data chunk by chunk, validates text as it comes,
 * and streams each chunk to the handler or gathers the message and hands it over whole. A message whose data comes
 * in one chunk (one frame, read at once, not compressed) is handed over in place. The gathering buffer is made at
 * the first message that comes in pieces, not with the session: most clients send none, and a server of
 * thousands of them would otherwise hold an idle buffer each. A message larger than {@link WebSocketConfig#initialMessageBufferSize}
 * grows it, and once that message is delivered the large buffer goes: a connection that once received a large
 * message does not keep its memory for life (messages up to the initial size allocate nothing). A buffer larger
 * than the initial size is reserved in its reactor's {@link LargeBufferBudget}: when the reactor's connections
 * hold too much already, the message is refused (1009).
 */
final class MessageAssembler
{
    private final WebSocket socket;
    private final WebSocketHandler handler;
    /** Its limits, read where used rather than copied: every session of a config shares them. */
    private final WebSocketConfig config;
    private final Utf8Validator utf8 = new Utf8Validator();
    /** The thread's view a text is handed over in, shared with its other sessions; set when the session opens. */
    private Utf8Text text;
    private ByteBuffer message;
    private boolean messageText;
    /** The reactor's bound on large buffers; null (no bound) until the session opens on a connection. */
    private LargeBufferBudget budget;
    /** Bytes of the buffer reserved in the budget: its capacity when large, else 0. */
    private int reserved;

    MessageAssembler(final WebSocket socket, final WebSocketHandler handler, final WebSocketConfig config)
    {
        this.socket = socket;
        this.handler = handler;
        this.config = config;
    }

    /**
     * The session opened on a connection.
     *
     * @param largeBuffers the reactor's bound on large buffers.
     * @param view         the thread's view that text messages are handed over in.
     */
    void open(final LargeBufferBudget largeBuffers, final Utf8Text view)
    {
        this.budget = largeBuffers;
        this.text = view;
    }

    /** The session closed: a large buffer held for a message never finished goes, and its reservation. */
    void release()
    {
        if (reserved > 0)
        {
            message = null;
            unreserve();
        }
    }

    private void unreserve()
    {
        budget.release(reserved);
        reserved = 0;
    }

    /** A new message starts, text or binary; what was gathered of another is dropped. */
    void begin(final boolean isText)
    {
        messageText = isText;
        utf8.reset();
        if (message != null)
        {
            message.clear();
        }
    }

    /**
     * Takes a chunk of the message's data.
     *
     * @return {@link FrameListener#CONTINUE}, or the close code the connection fails with.
     */
    int deliver(final ByteBuffer chunk, final boolean last)
    {
        if (messageText && (!utf8.update(chunk) || last && !utf8.isComplete()))
        {
            return CloseCode.INVALID_PAYLOAD;
        }
        if (config.streamFragments())
        {
            handler.fragment(socket, chunk, messageText, last);
            return FrameListener.CONTINUE;
        }
        if (last && (message == null || message.position() == 0))
        {
            // A message in one chunk, the usual case, is handed over where it lies: no copy, and no gathering
            // buffer for a connection whose messages all come whole.
            deliverWhole(chunk);
            return FrameListener.CONTINUE;
        }
        if (!ensureRoom(chunk.remaining()))
        {
            return CloseCode.MESSAGE_TOO_BIG;
        }
        message.put(chunk);
        if (last)
        {
            message.flip();
            deliverWhole(message);
            if (message.capacity() > config.initialMessageBufferSize())
            {
                message = null; // made again, at the initial size, by the next message
                if (reserved > 0)
                {
                    unreserve();
                }
            }
            else
            {
                message.clear();
            }
        }
        return FrameListener.CONTINUE;
    }

    private void deliverWhole(final ByteBuffer whole)
    {
        handOver(socket, handler, text, messageText, whole);
    }

    /**
     * Delivers a message that came in one chunk to a session that holds no assembler (none of its messages came
     * in pieces yet): checked with the thread's validator and handed over where it lies.
     *
     * @param socket  the session.
     * @param handler its handler.
     * @param config  its settings.
     * @param scratch the thread's validator and text view.
     * @param isText  whether the message is text.
     * @param whole   the message.
     * @return {@link FrameListener#CONTINUE}, or the close code the connection fails with.
     */
    static int deliverAlone(final WebSocket socket, final WebSocketHandler handler, final WebSocketConfig config,
        final CallbackScratch scratch, final boolean isText, final ByteBuffer whole)
    {
        if (isText && !scratch.utf8.isValid(whole, whole.position(), whole.limit()))
        {
            return CloseCode.INVALID_PAYLOAD;
        }
        if (config.streamFragments())
        {
            handler.fragment(socket, whole, isText, true);
        }
        else
        {
            handOver(socket, handler, scratch.text, isText, whole);
        }
        return FrameListener.CONTINUE;
    }

    private static void handOver(final WebSocket socket, final WebSocketHandler handler, final Utf8Text text,
        final boolean isText, final ByteBuffer whole)
    {
        if (isText)
        {
            handler.text(socket, text.wrap(whole, whole.position(), whole.limit()));
        }
        else
        {
            handler.binary(socket, whole);
        }
    }

    /** The reassembly buffer's size now, 0 when there is none; tests look at it. */
    int bufferCapacity()
    {
        return message == null ? 0 : message.capacity();
    }

    /**
     * Reserves a buffer of this capacity in place of the one held: nothing for one of the initial size, the
     * difference for a large one.
     *
     * @return false when the reactor's connections hold too many large buffers already.
     */
    private boolean reserve(final int capacity)
    {
        if (capacity <= config.initialMessageBufferSize() || budget == null)
        {
            return true;
        }
        if (!budget.reserve(capacity - reserved))
        {
            return false;
        }
        reserved = capacity;
        return true;
    }

    private boolean ensureRoom(final long bytes)
    {
        if (message == null)
        {
            if (bytes > config.maxMessageLength())
            {
                return false;
            }
            final int capacity = (int)Math.max(bytes, config.initialMessageBufferSize());
            if (!reserve(capacity))
            {
                return false;
            }
            message = ByteBuffer.allocate(capacity);
            return true;
        }
        if (message.remaining() >= bytes)
        {
            return true;
        }
        final long needed = message.position() + bytes;
        if (needed > config.maxMessageLength())
        {
            return false;
        }
        // Grows for a message larger than any so far; given back once that message is delivered.
        final int capacity = (int)Math.min(config.maxMessageLength(), Math.max(needed, 2L * message.capacity()));
        if (!reserve(capacity))
        {
            return false;
        }
        final ByteBuffer grown = ByteBuffer.allocate(capacity);
        message.flip();
        grown.put(message);
        message = grown;
        return true;
    }
}
