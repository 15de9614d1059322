package io.celer.linux.nio;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.spi.AbstractSelectionKey;

import io.celer.linux.Errno;
import io.celer.linux.Net;

/**
 * A channel's registration with a {@link UringSelector}, and what the ring's completions left for it: for a
 * connection, the provided buffers received and not yet read, the end of the stream or an error for the next
 * read, and the bytes staged for a send; for a listener, the descriptors accepted and not yet taken; for any other
 * channel (a datagram channel, a connection being made), the readiness a poll reported. Its readiness is derived
 * from that state, so it is level-triggered as the JDK's keys are. For the selector's thread, as the reactor uses
 * it. An accepted connection is its own key ({@link UringStream}), of no channel; its socket's calls are its own
 * too, where a channel's key ({@link UringChannelKey}) reaches the channel's {@link NativeSocket}, and keeps what
 * only channels need: a listener's accepted descriptors and a poll's readiness.
 */
abstract class UringSelectionKey extends AbstractSelectionKey
{
    /** A connected or connecting TCP socket: bytes through completions. */
    static final int STREAM = 0;
    /** A listener: multishot accept. */
    static final int LISTENER = 1;
    /** Any other channel: readiness through polls, its calls its own. */
    static final int POLLED = 2;

    /** Buffers a connection may hold unread before its receive is cancelled, so that it cannot starve others. */
    static final int HELD_BUFFERS = 8;
    /** A {@link #readQueued}'s answer when nothing is queued and no receive is armed: the socket itself is read. */
    static final int FROM_SOCKET = Integer.MIN_VALUE;

    /** Set at registration: a stream accepted on one reactor may be registered with another's selector. */
    UringSelector selector;
    final byte kind;
    /** Its slot and the slot's generation, new each time a reused channel's key wakes. */
    int slot;
    int generation;
    /** Out of the selector while its channel waits, its socket closed, for a later accept: see {@link #sleep}. */
    boolean asleep;
    private volatile int interestOps;
    private int readyOps;

    /** On the selector's list of keys to look at for readiness, and of keys with operations to prepare. */
    boolean checked;
    boolean pending;
    /** Operations the kernel holds for it: its slot and descriptor stay until they complete. */
    int inFlight;
    /** The channel closed: the selector closes the descriptor once nothing holds it. */
    volatile boolean channelClosed;
    /** The selector let go of it: no operation is in flight, its slot is free, its writes are the channel's. */
    boolean released;

    // A connection's input: (buffer id << 32 | length) per completion; the first one's bytes already read. The
    // queue is lent by the selector while it holds any and null otherwise, so that an idle connection holds none.
    private LongQueue received;
    int receivedOffset;
    /** The select in which a read last found nothing queued. */
    int emptyReadAt = -1;
    boolean receiving;
    boolean receiveCancelling;
    /** Its receive ended for want of buffers: armed again once some come back. */
    boolean starved;
    boolean endOfStream;
    /** The receive's error, a negated errno: a short, as every idle connection holds one. */
    short readError;
    boolean inputShut;

    // A connection's output: a send buffer lent by the selector, bytes staged up to staged, sent up to sent.
    long sendBuffer;
    int staged;
    int sent;
    boolean sending;
    /** The send's error, a negated errno: a short, as every idle connection holds one. */
    short writeError;
    boolean outputShutPending;
    boolean outputShut;

    /** Buffers received and not yet read. */
    int receivedCount()
    {
        return received == null ? 0 : received.size();
    }

    /** Whether any buffer received waits to be read. */
    boolean hasReceived()
    {
        return received != null;
    }

    /** Queues a buffer the ring received, in a queue the selector lends for as long as it holds any. */
    void queueReceived(final long entry)
    {
        if (received == null)
        {
            received = selector.lendQueue();
        }
        received.add(entry);
    }

    /** Takes the oldest buffer received; the queue goes back to the selector once empty. */
    long pollReceived()
    {
        final long entry = received.poll();
        if (received.isEmpty())
        {
            selector.takeBackQueue(received);
            received = null;
        }
        return entry;
    }

    /** A stream socket's own state, of no channel: its selector and slot come at its registration. */
    UringSelectionKey()
    {
        this.kind = STREAM;
    }

    /** A channel's key, of the kind its channel is. */
    UringSelectionKey(final UringSelector selector, final byte kind, final int slot, final int generation)
    {
        this.selector = selector;
        this.kind = kind;
        this.slot = slot;
        this.generation = generation;
    }

    @Override
    public Selector selector()
    {
        return selector;
    }

    @Override
    public int interestOps()
    {
        ensureValid();
        return interestOps;
    }

    @Override
    public SelectionKey interestOps(final int ops)
    {
        ensureValid();
        checkInterest(ops);
        if (asleep)
        {
            // Registered again, with its new socket: JDK's register found this key and set its interest.
            selector.checkOwner("registration");
            interestOps = ops;
            selector.wake(this);
        }
        else if (ops != interestOps)
        {
            selector.checkOwner("interest change");
            interestOps = ops;
            selector.changed(this);
        }
        return this;
    }

    /** Refuses an interest its socket does not support. */
    final void checkInterest(final int ops)
    {
        if ((ops & ~validOps()) != 0)
        {
            throw new IllegalArgumentException(
                "invalid interest set " + ops + " for " + (channel() != null ? channel() : this));
        }
    }

    /** The operations its socket supports. */
    abstract int validOps();

    /** Its descriptor. */
    abstract int fd();

    /** Whether its connection is made: a stream's always is. */
    abstract boolean connected();

    /** Whether its connection is being made. */
    abstract boolean connectionPending();

    /** Its socket's reads and writes go through the ring from now on. */
    abstract void takeSocket();

    /** Its socket's reads and writes are plain system calls from now on. */
    abstract void leaveSocket();

    /** Closes its descriptor, which nothing in the ring names any more. */
    abstract void releaseSocket();

    /** Asleep, its descriptor is closed and its slot free: its channel may be kept for a later accept. */
    abstract void socketReleased();

    int interest()
    {
        return interestOps;
    }

    void initialInterest(final int ops)
    {
        interestOps = ops;
    }

    @Override
    public int readyOps()
    {
        ensureValid();
        return readyOps;
    }

    void readyOps(final int ops)
    {
        readyOps = ops;
    }

    private void ensureValid()
    {
        if (!isValid())
        {
            throw new CancelledKeyException();
        }
    }

    /**
     * Its channel's socket closes for reuse: attached to nothing and out of the selected set, it stays valid
     * while the selector settles it as it would a cancelled key, so that the kernel holds nothing of the socket
     * before its descriptor closes; the channel is kept once both it and its connection let go.
     */
    void sleep()
    {
        attach(null);
        asleep = true;
        selector.selected.remove(this);
        selector.sleeping(this);
    }

    /**
     * A reused channel's key takes a slot again, with nothing of the last connection left in it.
     */
    void wakeIn(final int slot, final int generation)
    {
        this.slot = slot;
        this.generation = generation;
        asleep = false;
        released = false;
        channelClosed = false;
        inFlight = 0;
        readyOps = 0;
        receivedOffset = 0;
        emptyReadAt = -1;
        receiving = false;
        receiveCancelling = false;
        starved = false;
        endOfStream = false;
        readError = 0;
        inputShut = false;
        staged = 0;
        sent = 0;
        sending = false;
        writeError = 0;
        outputShutPending = false;
        outputShut = false;
    }

    /**
     * What its state makes ready among its interest: a stream's reads and writes (a channel's key adds the rest).
     */
    int readiness()
    {
        final int interest = interestOps;
        int ready = 0;
        if ((interest & SelectionKey.OP_READ) != 0 && (received != null || endOfStream || readError != 0 || inputShut))
        {
            ready |= SelectionKey.OP_READ;
        }
        if ((interest & SelectionKey.OP_WRITE) != 0 && connected() &&
            (staged < selector.sendBufferSize() || writeError != 0))
        {
            ready |= SelectionKey.OP_WRITE;
        }
        return ready;
    }

    /**
     * The end of the stream was read, from the ring or from the socket: a reset comes first if a send met it.
     *
     * @throws IOException the reset, which the kernel reports once, to the first call after it: a send that took
     *                     it completed unseen, so the read says it, as a write system call would have.
     */
    void endOfStreamRead() throws IOException
    {
        if (writeError == -Errno.ECONNRESET)
        {
            throw NativeSocket.failure("read", writeError);
        }
    }

    /**
     * Reads what the ring received: from the queued buffers, each given back to the kernel once read; then the end
     * of the stream or the error that ended the receive.
     *
     * @return bytes read, 0 when nothing is queued, -1 at the end of the stream, or {@link #FROM_SOCKET}.
     */
    final int readQueued(final ByteBuffer destination) throws IOException
    {
        selector.checkOwner("read");
        if (inputShut)
        {
            return -1;
        }
        if (received == null && !endOfStream && readError == 0)
        {
            // A caller that reads again within one dispatch after finding nothing polls the channel: it must see
            // bytes arrive, as a read system call would show them, so the ring is entered for it. So must a read
            // once this side shut its output, a lingering close's: unread bytes then mean that closing the
            // descriptor would reset the peer, and the bytes may wait in a completion not yet reaped.
            final boolean again = emptyReadAt == selector.selects || outputShut || outputShutPending;
            emptyReadAt = selector.selects;
            if (selector.enterOutsideSelect(again) && received != null)
            {
                return readQueued(destination);
            }
            if (!receiving && !endOfStream && readError == 0)
            {
                // No receive armed (its interest lost OP_READ, or it ran out of buffers) and none queued: the
                // socket's bytes are nobody else's, and the caller reads them with a system call, in order.
                return FROM_SOCKET;
            }
        }
        if (received == null)
        {
            if (readError != 0)
            {
                throw NativeSocket.failure("read", readError);
            }
            if (endOfStream)
            {
                endOfStreamRead();
                return -1;
            }
            return 0;
        }
        final int before = received.size();
        int total = 0;
        while (received != null && destination.hasRemaining())
        {
            final long entry = received.peek();
            final int id = (int)(entry >>> 32);
            final int length = (int)entry;
            final int count = Math.min(length - receivedOffset, destination.remaining());
            selector.copyOut(id, receivedOffset, destination, count);
            total += count;
            receivedOffset += count;
            if (receivedOffset == length)
            {
                pollReceived();
                receivedOffset = 0;
                selector.recycle(id);
            }
        }
        if (released && received == null)
        {
            // Deregistered with its channel open, its last queued bytes read: the channel calls the kernel itself.
            leaveSocket();
        }
        if (before >= HELD_BUFFERS && receivedCount() < HELD_BUFFERS)
        {
            // The receive may have been cancelled for holding too many: armed again.
            selector.pending(this);
        }
        return total;
    }

    /**
     * Stages bytes in the connection's send buffer, for a send the selector prepares.
     *
     * @return bytes taken, 0 when the send buffer is full.
     */
    final int stage(final ByteBuffer source) throws IOException
    {
        selector.checkOwner("write");
        if (writeError != 0)
        {
            throw NativeSocket.failure("write", writeError);
        }
        if (outputShut || outputShutPending)
        {
            throw new ClosedChannelException();
        }
        if (sendBuffer == 0)
        {
            sendBuffer = selector.lendSendBuffer();
        }
        final int count = Math.min(selector.sendBufferSize() - staged, source.remaining());
        if (count == 0)
        {
            return 0;
        }
        selector.copyIn(source, sendBuffer + staged, count);
        staged += count;
        if (!sending)
        {
            selector.pending(this);
            selector.enterOutsideSelect(false);
        }
        return count;
    }

    /**
     * A send completed: what went, or why none did.
     */
    void sent(final int result)
    {
        sending = false;
        if (result < 0)
        {
            writeError = (short)result;
            staged = 0;
            sent = 0;
        }
        else
        {
            sent += result;
        }
        if (sent == staged)
        {
            staged = 0;
            sent = 0;
            selector.giveBack(this);
            if (outputShutPending)
            {
                outputShutPending = false;
                shutdownOutputNow();
            }
        }
        else if (sent > 0)
        {
            // A slow peer takes a little at a time: what it took is room for the next write at once, not only
            // when the whole buffer has gone, or a writer would see no progress and time out.
            selector.moveToFront(sendBuffer + sent, sendBuffer, staged - sent);
            staged -= sent;
            sent = 0;
        }
    }

    boolean hasUnsent()
    {
        return staged > sent;
    }

    /**
     * Defers the shutdown of the output until the staged bytes are sent.
     *
     * @return true when it is deferred; false when nothing is staged and the caller shuts down now.
     */
    boolean shutdownOutputAfterStaged()
    {
        if (!hasUnsent() && !sending)
        {
            outputShut = true;
            return false;
        }
        outputShutPending = true;
        return true;
    }

    private void shutdownOutputNow()
    {
        outputShut = true;
        ThreadCalls.current().calls.shutdown(fd(), Net.SHUT_WR);
    }

    void inputShut()
    {
        inputShut = true;
        selector.pending(this);
    }

    /**
     * The channel closed: the peer hears the end of the stream at once unless bytes are still staged, which go
     * first; the selector closes the descriptor once the ring holds nothing of it.
     */
    void channelClosed()
    {
        channelClosed = true;
        if (kind == STREAM && !hasUnsent() && !sending && !outputShut)
        {
            outputShut = true;
            ThreadCalls.current().calls.shutdown(fd(), Net.SHUT_WR);
        }
        else if (kind == STREAM && (hasUnsent() || sending))
        {
            outputShutPending = true;
        }
    }
}
