package io.celer.websocket.internal;

import java.nio.ByteBuffer;
import io.celer.websocket.CloseCode;

/**
 * The close handshake of RFC 6455 section 7 for one connection: a close frame is sent at most once, a received
 * one is answered unless ours went first, and data stops flowing each way once that way's close has passed.
 * Also checks a received close frame's body.
 */
public final class CloseHandshake
{
    private boolean sent;
    private boolean received;
    private int sentCode;
    private int receivedCode;

    /**
     * A close handshake not yet begun.
     */
    public CloseHandshake()
    {
    }

    /**
     * Claims the right to send the one close frame.
     *
     * @param code the code it will carry ({@link CloseCode#NO_STATUS} for none).
     * @return true when the caller must now send it; false when a close frame was already sent.
     */
    public boolean sendClose(final int code)
    {
        if (sent)
        {
            return false;
        }
        sent = true;
        sentCode = code;
        return true;
    }

    /**
     * Records the peer's close frame.
     *
     * @param code its code, {@link CloseCode#NO_STATUS} when it had none.
     * @return true when it must be answered (no close frame was sent yet), with {@link #answerCode()}.
     */
    public boolean closeReceived(final int code)
    {
        received = true;
        receivedCode = code;
        return !sent;
    }

    /**
     * The code to answer a received close with: the peer's own, as endpoints typically echo it.
     *
     * @return the received code, or {@link CloseCode#NO_STATUS} for an empty answer.
     */
    public int answerCode()
    {
        return receivedCode;
    }

    /**
     * Whether data frames may still be sent.
     *
     * @return false once a close frame was sent.
     */
    public boolean canSend()
    {
        return !sent;
    }

    /**
     * Whether data frames may still arrive.
     *
     * @return false once the peer's close frame arrived.
     */
    public boolean canReceive()
    {
        return !received;
    }

    /**
     * Whether both close frames have passed, so the TCP connection may close.
     *
     * @return true when complete.
     */
    public boolean isComplete()
    {
        return sent && received;
    }

    /**
     * Whether a close frame was sent.
     *
     * @return true once sent.
     */
    public boolean isSent()
    {
        return sent;
    }

    /**
     * Whether the peer's close frame arrived.
     *
     * @return true once received.
     */
    public boolean isReceived()
    {
        return received;
    }

    /**
     * The code of the close frame sent.
     *
     * @return the code, 0 before one was sent.
     */
    public int sentCode()
    {
        return sentCode;
    }

    /**
     * The code of the close frame received.
     *
     * @return the code, 0 before one arrived.
     */
    public int receivedCode()
    {
        return receivedCode;
    }

    /**
     * Forgets everything, for a connection reused from a pool.
     */
    public void reset()
    {
        sent = false;
        received = false;
        sentCode = 0;
        receivedCode = 0;
    }

    /**
     * Checks a received close frame's body (RFC 6455 sections 5.5.1 and 7.4): empty, or a code allowed on the
     * wire followed by a UTF-8 reason.
     *
     * @param payload   the body between position and limit; not moved.
     * @param validator a validator to use (reset here).
     * @return 0 when valid, else {@link CloseCode#PROTOCOL_ERROR} or {@link CloseCode#INVALID_PAYLOAD}.
     */
    public static int check(final ByteBuffer payload, final Utf8Validator validator)
    {
        final int length = payload.remaining();
        if (length == 0)
        {
            return 0;
        }
        if (length == 1 || !CloseCode.isValidOnWire(code(payload)))
        {
            return CloseCode.PROTOCOL_ERROR;
        }
        return validator.isValid(payload, payload.position() + 2, payload.limit()) ? 0 : CloseCode.INVALID_PAYLOAD;
    }

    /**
     * The code in a close frame's body.
     *
     * @param payload the body between position and limit; not moved.
     * @return the code, or {@link CloseCode#NO_STATUS} for an empty body.
     */
    public static int code(final ByteBuffer payload)
    {
        if (payload.remaining() < 2)
        {
            return CloseCode.NO_STATUS;
        }
        final int at = payload.position();
        return (payload.get(at) & 0xFF) << 8 | (payload.get(at + 1) & 0xFF);
    }
}
