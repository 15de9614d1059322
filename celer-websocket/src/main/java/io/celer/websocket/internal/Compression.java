package io.celer.websocket.internal;

import java.nio.ByteBuffer;
import java.util.zip.Deflater;

import io.celer.reactor.internal.CycleTask;
import io.celer.websocket.deflate.DeflateParameters;
import io.celer.websocket.CloseCode;

/**
 * permessage-deflate inside a session: inflates compressed messages chunk by chunk into its message assembler,
 * and deflates outgoing messages, whole or fragment by fragment, straight into the frame buffer behind room left
 * for the header.
 */
final class Compression
{
    private static final int INFLATE_CHUNK = 16 * 1024;

    /** The end of a message with no bytes left: shared, as a buffer of no bytes holds no state of its own. */
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);
    private MessageDeflater deflater;
    private MessageInflater inflater;
    private ByteBuffer inflated;
    private ByteBuffer staging;
    private long inflatedLength;
    private int maxMessageLength;
    private int maxInflatePerCycle;
    /** The reactor cycle in which {@link #inflatedThisCycle} was counted. */
    private long cycle = -1;
    private long inflatedThisCycle;
    /**
     * Goes on with a compressed message its session paused at the bound of one cycle's inflation: the session's,
     * kept here, as only compression pauses, so a session without it holds no reference to one.
     */
    CycleTask resume;

    void enable(final DeflateParameters parameters, final boolean server, final int level, final int maxMessage,
        final int maxPerCycle)
    {
        maxInflatePerCycle = maxPerCycle;
        deflater = new MessageDeflater(level, parameters.noContextTakeover(server),
            server ? parameters.serverMaxWindowBits() : parameters.clientMaxWindowBits());
        inflater = new MessageInflater(parameters.noContextTakeover(!server));
        inflated = ByteBuffer.allocateDirect(INFLATE_CHUNK);
        maxMessageLength = maxMessage;
    }

    boolean isEnabled()
    {
        return deflater != null;
    }

    /**
     * Inflates a chunk of a compressed message's payload into the assembler, within this cycle's bound.
     *
     * @param payload  compressed bytes; its position moves past those used.
     * @param last     whether it ends the message.
     * @param nowCycle the reactor's cycle.
     * @return {@link FrameListener#CONTINUE}; {@link FrameListener#PAUSE} when the cycle's bound is spent with
     *         input left (the rest of the payload is to come again in a later cycle); or a close code.
     */
    int inflate(final MessageAssembler assembler, final ByteBuffer payload, final boolean last, final long nowCycle)
    {
        if (nowCycle != cycle)
        {
            cycle = nowCycle;
            inflatedThisCycle = 0;
        }
        inflater.input(payload);
        int code = drain(assembler, payload);
        if (code != FrameListener.CONTINUE || !last)
        {
            return code;
        }
        // The input is used up, so the tail only flushes what the last bytes left: a few hundred bytes at most.
        inflater.endOfMessage();
        code = drain(assembler, null);
        inflater.messageDone();
        inflatedLength = 0;
        return code != FrameListener.CONTINUE ? code : assembler.deliver(EMPTY.clear(), true);
    }

    /** Inflates until the input is used up, or until the cycle's bound is spent while {@code input} has more. */
    private int drain(final MessageAssembler assembler, final ByteBuffer input)
    {
        while (true)
        {
            inflated.clear();
            final int produced = inflater.inflate(inflated);
            if (produced == MessageInflater.CORRUPT)
            {
                return CloseCode.INVALID_PAYLOAD;
            }
            if (produced == 0)
            {
                return FrameListener.CONTINUE;
            }
            inflatedLength += produced;
            inflatedThisCycle += produced;
            if (inflatedLength > maxMessageLength)
            {
                return CloseCode.MESSAGE_TOO_BIG; // a small frame may inflate without bound
            }
            inflated.flip();
            final int code = assembler.deliver(inflated, false);
            if (code != FrameListener.CONTINUE)
            {
                return code;
            }
            if (inflatedThisCycle >= maxInflatePerCycle && input != null && input.hasRemaining())
            {
                return FrameListener.PAUSE;
            }
        }
    }

    boolean deflate(final FrameWriter writer, final int opcode, final ByteBuffer data)
    {
        final ByteBuffer frames = writer.frames();
        final int at = data.position();
        frames.position(FrameEncoder.MAX_HEADER_LENGTH);
        if (data.remaining() > frames.remaining() || !deflater.deflate(data, frames))
        {
            // Does not compress into the buffer: send it as it is (RSV1 clear), or refuse as the plain path does.
            data.position(at);
            return writer.write(opcode, true, data);
        }
        if (writeDeflated(writer, frames, opcode, true, true))
        {
            return true;
        }
        // The peer will never see this message, so later ones must not refer back to it.
        deflater.reset();
        data.position(at);
        return false;
    }

    boolean deflateText(final FrameWriter writer, final CharSequence text)
    {
        return deflate(writer, Opcode.TEXT, utf8(writer, text));
    }

    /**
     * Sends a fragment compressed, RSV1 on the message's first; refused before the deflater takes a byte, since
     * what it took could not be given back, and so after a flush to make room if the buffer has too little.
     */
    boolean deflateFragment(final FrameWriter writer, final int opcode, final boolean first, final boolean last,
        final ByteBuffer data)
    {
        if (!writer.makeRoom(FrameEncoder.MAX_HEADER_LENGTH + MessageDeflater.bound(data.remaining())))
        {
            return false;
        }
        final ByteBuffer frames = writer.frames();
        frames.position(FrameEncoder.MAX_HEADER_LENGTH);
        if (!deflater.deflate(data, frames, last))
        {
            throw new IllegalStateException("a compressed fragment outgrew its bound");
        }
        if (!writeDeflated(writer, frames, opcode, last, first))
        {
            throw new IllegalStateException("a fragment refused after room was made for it");
        }
        return true;
    }

    /** Puts the frame's header in front of the payload deflated behind the room left for it, and writes both. */
    private static boolean writeDeflated(final FrameWriter writer, final ByteBuffer frames, final int opcode,
        final boolean fin, final boolean rsv1)
    {
        final int length = frames.position() - FrameEncoder.MAX_HEADER_LENGTH;
        final int start = writer.encoder().frameInPlace(frames, FrameEncoder.MAX_HEADER_LENGTH, length, opcode,
            fin, rsv1);
        frames.limit(FrameEncoder.MAX_HEADER_LENGTH + length).position(start);
        return writer.write(frames);
    }

    boolean deflateTextFragment(final FrameWriter writer, final int opcode, final boolean first,
        final boolean last, final CharSequence text)
    {
        return deflateFragment(writer, opcode, first, last, utf8(writer, text));
    }

    private ByteBuffer utf8(final FrameWriter writer, final CharSequence text)
    {
        final int length = FrameEncoder.utf8Length(text);
        if (staging == null)
        {
            staging = ByteBuffer.allocateDirect(writer.frames().limit());
        }
        if (length > staging.capacity())
        {
            throw new IllegalArgumentException("a text of " + length + " bytes does not fit the write buffer of " +
                staging.capacity() + "; send it in fragments");
        }
        staging.clear().limit(FrameEncoder.writeUtf8(text, staging, 0));
        return staging;
    }

    void close()
    {
        if (deflater != null)
        {
            deflater.close();
            inflater.close();
        }
    }

    static int defaultLevel()
    {
        return Deflater.DEFAULT_COMPRESSION;
    }
}
