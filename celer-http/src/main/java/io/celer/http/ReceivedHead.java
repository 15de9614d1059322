package io.celer.http;

import java.nio.ByteBuffer;

/**
 * What a received request and a received response share: the version, the header fields as a table of offsets
 * into the bytes they came in, and the fields that frame the body. A flyweight: nothing is copied into Strings.
 *
 * <p>A base class rather than a field of each, so that the parsers write the table and the accessors read it with
 * no extra hop on the hot path.
 */
abstract class ReceivedHead
{
    final int[] nameStart;
    final int[] nameEnd;
    final int[] valueStart;
    final int[] valueEnd;
    int headerCount;

    ByteBuffer buffer;
    int base;
    int minorVersion;
    long contentLength;
    boolean chunked;
    boolean keepAlive;

    final AsciiView view = new AsciiView();

    ReceivedHead(final int maxHeaders)
    {
        nameStart = new int[maxHeaders];
        nameEnd = new int[maxHeaders];
        valueStart = new int[maxHeaders];
        valueEnd = new int[maxHeaders];
    }

    /**
     * The minor version of the peer's HTTP: 1 for HTTP/1.1, 0 for HTTP/1.0.
     *
     * @return the minor version.
     */
    public final int minorVersion()
    {
        return minorVersion;
    }

    /**
     * Whether the connection stays open after this exchange (version, {@code Connection}, framing).
     *
     * @return true to keep it open.
     */
    public final boolean isKeepAlive()
    {
        return keepAlive;
    }

    /**
     * The number of header fields.
     *
     * @return the count.
     */
    public final int headerCount()
    {
        return headerCount;
    }

    /**
     * The name of a field, as sent.
     *
     * @param index from 0 to {@link #headerCount()} - 1.
     * @return a reused view.
     */
    public final AsciiView headerName(final int index)
    {
        java.util.Objects.checkIndex(index, headerCount);
        return view.wrap(buffer, base + nameStart[index], base + nameEnd[index]);
    }

    /**
     * The value of a field, without surrounding whitespace.
     *
     * @param index from 0 to {@link #headerCount()} - 1.
     * @return a reused view.
     */
    public final AsciiView headerValue(final int index)
    {
        java.util.Objects.checkIndex(index, headerCount);
        return view.wrap(buffer, base + valueStart[index], base + valueEnd[index]);
    }

    /**
     * The value of the first field with this name.
     *
     * @param name the name, any case.
     * @return a reused view, or null when absent.
     */
    public final AsciiView header(final CharSequence name)
    {
        final int index = indexOf(name);
        return index < 0 ? null : view.wrap(buffer, base + valueStart[index], base + valueEnd[index]);
    }

    /**
     * Whether the first field with this name has this value, ignoring case.
     *
     * @param name  the name.
     * @param value the value.
     * @return true if present and equal.
     */
    public final boolean headerEquals(final CharSequence name, final CharSequence value)
    {
        final int index = indexOf(name);
        return index >= 0 && Ascii.equalsIgnoreCase(buffer, base + valueStart[index], base + valueEnd[index], value);
    }

    /**
     * Whether there is a field with this name.
     *
     * @param name the name.
     * @return true if present.
     */
    public final boolean hasHeader(final CharSequence name)
    {
        return indexOf(name) >= 0;
    }

    private int indexOf(final CharSequence name)
    {
        return HeaderFieldParser.indexOf(buffer, base, nameStart, nameEnd, headerCount, name);
    }

    /**
     * The declared Content-Length.
     *
     * @return bytes, or -1 without one (chunked, no body, or a response delimited by the connection's close).
     */
    public final long contentLength()
    {
        return contentLength;
    }

    /**
     * Whether the body came chunked.
     *
     * @return true for {@code Transfer-Encoding: chunked}.
     */
    public final boolean isChunked()
    {
        return chunked;
    }
}
