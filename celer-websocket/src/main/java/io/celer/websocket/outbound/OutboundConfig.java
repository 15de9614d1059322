package io.celer.websocket.outbound;

/**
 * Settings of the outgoing queues of a server's clients; fluent, read when a {@link Fanout} is made.
 *
 * <p>The queues only work on connections whose write buffer, when full, refuses a write instead of closing the
 * connection: configure the server with {@code TcpConfig.disconnectOnFullWriteBuffer(false)}. The queue itself never
 * writes a frame that does not fit, but the session's own frames (pongs) and the application's direct sends would
 * otherwise close a lagging client.
 */
public final class OutboundConfig
{
    /** The most bytes a queue may be bounded to, so its storage (bytes plus one message) fits an array. */
    public static final int MAX_QUEUED_BYTES_LIMIT = 1 << 30;

    private int maxQueuedMessages = 1024;
    private int maxQueuedBytes = 1024 * 1024;
    private int maxMessageLength = 16 * 1024;
    private int lagThreshold = 1;
    private OverflowPolicy policy = OverflowPolicy.DROP_OLDEST;
    private int drainBudget = 16 * 1024;
    private int segmentSize;
    private long maxTotalQueueStorage = Long.MAX_VALUE;

    /**
     * Settings with every default, to be changed by the methods below.
     */
    public OutboundConfig()
    {
    }

    /**
     * The most messages one client's queue holds.
     *
     * @param messages at least 1.
     * @return this.
     */
    public OutboundConfig maxQueuedMessages(final int messages)
    {
        this.maxQueuedMessages = atLeastOne(messages, "maxQueuedMessages");
        return this;
    }

    /**
     * The most payload bytes one client's queue holds; its storage, in segments, stays within about twice this and
     * the messages' headers, plus two segments (see {@link MessageQueue}).
     *
     * @param bytes at least {@link #maxMessageLength()}, at most {@link #MAX_QUEUED_BYTES_LIMIT}.
     * @return this.
     */
    public OutboundConfig maxQueuedBytes(final int bytes)
    {
        if (bytes < 1 || bytes > MAX_QUEUED_BYTES_LIMIT)
        {
            throw new IllegalArgumentException("maxQueuedBytes out of 1.." + MAX_QUEUED_BYTES_LIMIT + ": " + bytes);
        }
        this.maxQueuedBytes = bytes;
        return this;
    }

    /**
     * The largest message sent through the queues, and the payload capacity of each publisher's carrier; a frame
     * of this size must also fit the connections' write buffer.
     *
     * @param bytes at least 1, at most {@link #maxQueuedBytes()}.
     * @return this.
     */
    public OutboundConfig maxMessageLength(final int bytes)
    {
        this.maxMessageLength = atLeastOne(bytes, "maxMessageLength");
        return this;
    }

    /**
     * How many queued messages make a client lagging; it stops lagging when its queue is empty again.
     *
     * @param messages at least 1 (the default: lagging as soon as one message has to wait).
     * @return this.
     */
    public OutboundConfig lagThreshold(final int messages)
    {
        this.lagThreshold = atLeastOne(messages, "lagThreshold");
        return this;
    }

    /**
     * What a full queue does with a message.
     *
     * @param policy the policy; {@link OverflowPolicy#DROP_OLDEST} by default.
     * @return this.
     */
    public OutboundConfig overflowPolicy(final OverflowPolicy policy)
    {
        if (policy == null)
        {
            throw new IllegalArgumentException("overflowPolicy is null");
        }
        this.policy = policy;
        return this;
    }

    /**
     * The most payload bytes one client's queue moves into its write buffer per reactor cycle; a longer backlog
     * continues in the next cycle, taking turns with the other clients' backlogs, so that a slow client that
     * reads again does not hold the reactor while the others' messages wait. At least one message moves per turn.
     *
     * @param bytes at least 1; 16 KiB by default.
     * @return this.
     */
    public OutboundConfig drainBudget(final int bytes)
    {
        this.drainBudget = atLeastOne(bytes, "drainBudget");
        return this;
    }

    /**
     * Payload bytes a queue moves per reactor cycle.
     *
     * @return bytes.
     */
    public int drainBudget()
    {
        return drainBudget;
    }

    /**
     * The size of the storage segments the queues take from their fanout's shared pool as they grow and give
     * back when drained.
     *
     * @param bytes 0 (the default) for an eighth of {@link #maxQueuedBytes()} up to 64 KiB; otherwise at least
     *              {@link #maxMessageLength()} plus 13 bytes of header.
     * @return this.
     */
    public OutboundConfig segmentSize(final int bytes)
    {
        if (bytes < 0)
        {
            throw new IllegalArgumentException("segmentSize below 0: " + bytes);
        }
        this.segmentSize = bytes;
        return this;
    }

    /**
     * The segment size as set.
     *
     * @return bytes, 0 when chosen from the other bounds.
     */
    public int segmentSize()
    {
        return segmentSize;
    }

    /**
     * The most queue storage all the clients of a fanout hold together, in segments: when the pool has given out
     * that much, a queue that needs one more segment is full, whatever its own bounds, and its overflow policy
     * applies: dropping the oldest then frees a whole segment before the newest fits, and a client with nothing
     * queued loses the newest. Bounds the memory of many slow clients at once.
     *
     * @param bytes at least one segment; unbounded (only the clients' own bounds) by default.
     * @return this.
     */
    public OutboundConfig maxTotalQueueStorage(final long bytes)
    {
        if (bytes < 1)
        {
            throw new IllegalArgumentException("maxTotalQueueStorage below 1: " + bytes);
        }
        this.maxTotalQueueStorage = bytes;
        return this;
    }

    /**
     * The most queue storage of all clients together.
     *
     * @return bytes.
     */
    public long maxTotalQueueStorage()
    {
        return maxTotalQueueStorage;
    }

    /**
     * The segment size the queues use: as set, or chosen from the bounds.
     */
    int effectiveSegmentSize()
    {
        return segmentSize != 0 ? segmentSize : MessageQueue.segmentSizeFor(maxQueuedBytes, maxMessageLength);
    }

    /**
     * The most messages a queue holds.
     *
     * @return messages.
     */
    public int maxQueuedMessages()
    {
        return maxQueuedMessages;
    }

    /**
     * The most payload bytes a queue holds.
     *
     * @return bytes.
     */
    public int maxQueuedBytes()
    {
        return maxQueuedBytes;
    }

    /**
     * The largest message.
     *
     * @return bytes.
     */
    public int maxMessageLength()
    {
        return maxMessageLength;
    }

    /**
     * Queued messages that make a client lagging.
     *
     * @return messages.
     */
    public int lagThreshold()
    {
        return lagThreshold;
    }

    /**
     * What a full queue does.
     *
     * @return the policy.
     */
    public OverflowPolicy overflowPolicy()
    {
        return policy;
    }

    /**
     * Checks that the settings agree with each other.
     *
     * @return this.
     * @throws IllegalArgumentException when a message could be larger than a whole queue.
     */
    OutboundConfig validate()
    {
        if (maxMessageLength > maxQueuedBytes)
        {
            throw new IllegalArgumentException("maxMessageLength " + maxMessageLength + " above maxQueuedBytes " +
                maxQueuedBytes);
        }
        final int segment = effectiveSegmentSize();
        if (segment < maxMessageLength + MessageQueue.HEADER)
        {
            throw new IllegalArgumentException("segmentSize " + segment + " below maxMessageLength " +
                maxMessageLength + " plus a header of " + MessageQueue.HEADER);
        }
        if (maxTotalQueueStorage < segment)
        {
            throw new IllegalArgumentException("maxTotalQueueStorage " + maxTotalQueueStorage +
                " below one segment of " + segment);
        }
        return this;
    }

    private static int atLeastOne(final int value, final String name)
    {
        if (value < 1)
        {
            throw new IllegalArgumentException(name + " below 1: " + value);
        }
        return value;
    }
}
