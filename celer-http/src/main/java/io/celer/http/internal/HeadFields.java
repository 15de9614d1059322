package io.celer.http.internal;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;

import io.celer.http.AsciiView;

/**
 * What a parser reads from a received head, for the request or response that shows it: the version, the header
 * fields as a table of offsets into the bytes they came in, and the fields that frame the body. A flyweight:
 * nothing is copied into Strings. Trailer fields use the same table.
 *
 * <p>The offsets are relative to a base, so that the head's bytes may move in their buffer between parsing and
 * reading (a held chunked body slides them); {@link #attach} says where they are once they stay put.
 */
public final class HeadFields
{
    /** Room for this many fields at first: most heads have fewer, and an idle connection keeps its table. */
    private static final int INITIAL_FIELDS = 16;

    private final int maxFields;
    int[] nameStart;
    int[] nameEnd;
    int[] valueStart;
    int[] valueEnd;
    int count;

    private ByteBuffer buffer;
    private int base;
    private int minorVersion;
    private long contentLength;
    private boolean chunked;
    private boolean keepAlive;

    private final AsciiView view = new AsciiView();

    /**
     * An empty table.
     *
     * @param maxFields the most fields it holds.
     */
    public HeadFields(final int maxFields)
    {
        this.maxFields = maxFields;
        final int room = Math.min(maxFields, INITIAL_FIELDS);
        nameStart = new int[room];
        nameEnd = new int[room];
        valueStart = new int[room];
        valueEnd = new int[room];
    }

    /**
     * Doubles the room for fields, up to the most the table holds; the table keeps it for its next heads.
     *
     * @return false when it holds the most already.
     */
    boolean grow()
    {
        if (nameStart.length >= maxFields)
        {
            return false;
        }
        final int room = Math.min(maxFields, 2 * nameStart.length);
        nameStart = Arrays.copyOf(nameStart, room);
        nameEnd = Arrays.copyOf(nameEnd, room);
        valueStart = Arrays.copyOf(valueStart, room);
        valueEnd = Arrays.copyOf(valueEnd, room);
        return true;
    }

    /**
     * Forgets the fields and the framing, for the next head; the version stays until the next is read.
     */
    public void clear()
    {
        count = 0;
        contentLength = -1;
        chunked = false;
        keepAlive = false;
    }

    /**
     * Says where the offsets point.
     *
     * @param bytes the buffer the head is in, or null once it is gone.
     * @param at    absolute index the offsets are relative to.
     */
    public void attach(final ByteBuffer bytes, final int at)
    {
        this.buffer = bytes;
        this.base = at;
    }

    /**
     * The buffer the head is in.
     *
     * @return the buffer, null before {@link #attach}.
     */
    public ByteBuffer buffer()
    {
        return buffer;
    }

    /**
     * Where the head starts in {@link #buffer()}.
     *
     * @return the absolute index the offsets are relative to.
     */
    public int base()
    {
        return base;
    }

    /**
     * The number of fields.
     *
     * @return the count.
     */
    public int count()
    {
        return count;
    }

    /**
     * Where a field's name starts.
     *
     * @param index from 0 to {@link #count()} - 1.
     * @return the offset from {@link #base()}.
     */
    public int nameStart(final int index)
    {
        return nameStart[index];
    }

    /**
     * Where a field's name ends.
     *
     * @param index from 0 to {@link #count()} - 1.
     * @return the offset from {@link #base()} after its last byte.
     */
    public int nameEnd(final int index)
    {
        return nameEnd[index];
    }

    /**
     * Where a field's value starts, after leading whitespace.
     *
     * @param index from 0 to {@link #count()} - 1.
     * @return the offset from {@link #base()}.
     */
    public int valueStart(final int index)
    {
        return valueStart[index];
    }

    /**
     * Where a field's value ends, before trailing whitespace.
     *
     * @param index from 0 to {@link #count()} - 1.
     * @return the offset from {@link #base()} after its last byte.
     */
    public int valueEnd(final int index)
    {
        return valueEnd[index];
    }

    /**
     * The name of a field, as sent.
     *
     * @param index from 0 to {@link #count()} - 1.
     * @return the table's view, reused by its next lookup.
     */
    public AsciiView name(final int index)
    {
        Objects.checkIndex(index, count);
        return view.wrap(buffer, base + nameStart[index], base + nameEnd[index]);
    }

    /**
     * The value of a field, without surrounding whitespace.
     *
     * @param index from 0 to {@link #count()} - 1.
     * @return the table's view, reused by its next lookup.
     */
    public AsciiView value(final int index)
    {
        Objects.checkIndex(index, count);
        return view.wrap(buffer, base + valueStart[index], base + valueEnd[index]);
    }

    /**
     * The value of the first field with this name.
     *
     * @param name the name, any case.
     * @return the table's view, reused by its next lookup; null when absent.
     */
    public AsciiView value(final CharSequence name)
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
    public boolean valueEquals(final CharSequence name, final CharSequence value)
    {
        final int index = indexOf(name);
        return index >= 0 && Ascii.equalsIgnoreCase(buffer, base + valueStart[index], base + valueEnd[index], value);
    }

    /**
     * The first field with this name.
     *
     * @param name the name, any case.
     * @return its index, or -1 when absent.
     */
    public int indexOf(final CharSequence name)
    {
        for (int i = 0; i < count; i++)
        {
            if (Ascii.equalsIgnoreCase(buffer, base + nameStart[i], base + nameEnd[i], name))
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * Other bytes of the head (a request's target, a response's reason), through the table's view.
     *
     * @param from offset from {@link #base()} of the first byte.
     * @param to   offset from {@link #base()} after the last byte.
     * @return the table's view, reused by its next lookup.
     */
    public AsciiView view(final int from, final int to)
    {
        return view.wrap(buffer, base + from, base + to);
    }

    /**
     * The minor version of the peer's HTTP: 1 for HTTP/1.1, 0 for HTTP/1.0.
     *
     * @return the minor version.
     */
    public int minorVersion()
    {
        return minorVersion;
    }

    /**
     * Sets the minor version read from the start line.
     *
     * @param minor 0 or 1.
     */
    public void minorVersion(final int minor)
    {
        this.minorVersion = minor;
    }

    /**
     * The declared Content-Length.
     *
     * @return bytes, or -1 without one.
     */
    public long contentLength()
    {
        return contentLength;
    }

    /**
     * Sets the Content-Length the framing fields declare.
     *
     * @param length bytes, or -1 for none.
     */
    public void contentLength(final long length)
    {
        this.contentLength = length;
    }

    /**
     * Whether the body comes chunked.
     *
     * @return true for {@code Transfer-Encoding: chunked}.
     */
    public boolean isChunked()
    {
        return chunked;
    }

    /**
     * Sets whether the body comes chunked.
     *
     * @param value true for {@code Transfer-Encoding: chunked}.
     */
    public void chunked(final boolean value)
    {
        this.chunked = value;
    }

    /**
     * Whether the connection stays open after this message (version, {@code Connection}, framing).
     *
     * @return true to keep it open.
     */
    public boolean isKeepAlive()
    {
        return keepAlive;
    }

    /**
     * Sets whether the connection stays open after this message.
     *
     * @param value true to keep it open.
     */
    public void keepAlive(final boolean value)
    {
        this.keepAlive = value;
    }
}
