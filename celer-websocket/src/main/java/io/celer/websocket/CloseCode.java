package io.celer.websocket;

/**
 * The close status codes of RFC 6455 section 7.4, and which of them may travel in a close frame.
 */
public final class CloseCode
{
    /** The purpose of the connection is fulfilled. */
    public static final int NORMAL = 1000;
    /** The endpoint is going away (server shutdown, page left). */
    public static final int GOING_AWAY = 1001;
    /** The peer broke the protocol. */
    public static final int PROTOCOL_ERROR = 1002;
    /** A data type the endpoint cannot accept. */
    public static final int UNSUPPORTED_DATA = 1003;
    /** No code was present in the close frame; never sent. */
    public static final int NO_STATUS = 1005;
    /** The connection dropped without a close frame; never sent. */
    public static final int ABNORMAL = 1006;
    /** A message's data did not match its type (invalid UTF-8 in text). */
    public static final int INVALID_PAYLOAD = 1007;
    /** The message broke the endpoint's policy. */
    public static final int POLICY_VIOLATION = 1008;
    /** A frame or message too big to process. */
    public static final int MESSAGE_TOO_BIG = 1009;
    /** The client expected an extension the server did not agree to. */
    public static final int MANDATORY_EXTENSION = 1010;
    /** The server met an unexpected condition. */
    public static final int INTERNAL_ERROR = 1011;
    /** The TLS handshake failed; never sent. */
    public static final int TLS_HANDSHAKE = 1015;

    private CloseCode()
    {
    }

    /**
     * Whether a code may appear in a close frame (RFC 6455 section 7.4): the defined codes that may be sent,
     * 1012 to 1014 registered since, and 3000 to 4999 for libraries and applications.
     *
     * @param code the code.
     * @return false for codes below 1000, 1004 to 1006, 1015 to 2999 and 5000 up.
     */
    public static boolean isValidOnWire(final int code)
    {
        if (code >= 3000 && code <= 4999)
        {
            return true;
        }
        return code >= 1000 && code <= 1014 && code != 1004 && code != NO_STATUS && code != ABNORMAL;
    }
}
