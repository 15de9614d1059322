package io.celer.http;

/**
 * The trailer fields of a chunked response: a table of offsets into the buffer its head came in, where the
 * decoder copied them after the head.
 */
final class ReceivedTrailers extends ReceivedHead
{
    /** The most trailer fields a response may have. */
    static final int MAX_FIELDS = 32;

    ReceivedTrailers()
    {
        super(MAX_FIELDS);
    }
}
