package io.celer.websocket.internal;

/**
 * The frame opcodes of RFC 6455 section 5.2.
 */
public final class Opcode
{
    /** A continuation of a fragmented message. */
    public static final int CONTINUATION = 0x0;
    /** The first frame of a text message. */
    public static final int TEXT = 0x1;
    /** The first frame of a binary message. */
    public static final int BINARY = 0x2;
    /** A close frame. */
    public static final int CLOSE = 0x8;
    /** A ping frame. */
    public static final int PING = 0x9;
    /** A pong frame. */
    public static final int PONG = 0xA;

    private Opcode()
    {
    }

    /**
     * Whether an opcode is a control frame's (close, ping, pong or a reserved control opcode).
     *
     * @param opcode the opcode.
     * @return true for 0x8 to 0xF.
     */
    public static boolean isControl(final int opcode)
    {
        return (opcode & 0x8) != 0;
    }

    /**
     * Whether RFC 6455 defines the opcode; the others are reserved and fail the connection.
     *
     * @param opcode the opcode.
     * @return true for continuation, text, binary, close, ping and pong.
     */
    public static boolean isKnown(final int opcode)
    {
        return opcode <= BINARY || (opcode >= CLOSE && opcode <= PONG);
    }
}
