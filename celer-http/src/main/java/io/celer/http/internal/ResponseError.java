package io.celer.http.internal;

/**
 * Why the client rejected a response: each a constant, so that a rejection allocates nothing (a string literal
 * would be made on its first use) and reads the same in every failure.
 */
public enum ResponseError
{
    /** Response head larger than the limit. */
    HEAD_TOO_LARGE("response head larger than the limit"),
    /** Status line not ended by CRLF. */
    STATUS_LINE_END("status line not ended by CRLF"),
    /** Malformed status line: no HTTP/1.x version. */
    VERSION("malformed status line: no HTTP/1.x version"),
    /** Malformed status line: no three-digit status. */
    STATUS_DIGITS("malformed status line: no three-digit status"),
    /** Status code out of range. */
    STATUS_RANGE("status code out of range"),
    /** Malformed status line: no space after the status. */
    STATUS_SPACE("malformed status line: no space after the status"),
    /** Malformed status line: a control char in the reason. */
    REASON_CHAR("malformed status line: a control char in the reason"),
    /** Head not ended by an empty CRLF line. */
    HEAD_END("head not ended by an empty CRLF line"),
    /** Field line not ended by CRLF. */
    FIELD_LINE_END("field line not ended by CRLF"),
    /** Folded line before any field. */
    FOLD_FIRST("folded line before any field"),
    /** Malformed field name. */
    FIELD_NAME("malformed field name"),
    /** A control char in a field value. */
    FIELD_VALUE_CHAR("a control char in a field value"),
    /** More header fields than the limit. */
    TOO_MANY_FIELDS("more header fields than the limit"),
    /** Malformed Content-Length. */
    BAD_LENGTH("malformed Content-Length"),
    /** Conflicting Content-Length values. */
    CONFLICTING_LENGTHS("conflicting Content-Length values"),
    /** Unsupported Transfer-Encoding (only chunked is accepted). */
    UNSUPPORTED_CODING("unsupported Transfer-Encoding (only chunked is accepted)"),
    /** Chunked applied more than once. */
    CHUNKED_TWICE("chunked applied more than once"),
    /** Both Transfer-Encoding and Content-Length. */
    BOTH_LENGTHS("both Transfer-Encoding and Content-Length"),
    /** Transfer-Encoding in an HTTP/1.0 response. */
    CHUNKED_IN_HTTP_1_0("Transfer-Encoding in an HTTP/1.0 response"),
    /** 101 Switching Protocols to a request that asked for no upgrade. */
    UNASKED_UPGRADE("101 Switching Protocols to a request that asked for no upgrade"),
    /** Malformed chunked body. */
    BAD_CHUNKED("malformed chunked body"),
    /** Connection closed in the middle of a response. */
    CUT_SHORT("connection closed in the middle of a response");

    private final String message;

    ResponseError(final String message)
    {
        this.message = message;
    }

    /**
     * The reason, for people.
     *
     * @return the text.
     */
    public String message()
    {
        return message;
    }
}
