package io.celer.examples.fanout;

import java.nio.ByteBuffer;

import io.celer.framing.LineFraming;
import io.celer.reactor.Reactor;
import io.celer.tcp.CloseReason;
import io.celer.tcp.Connection;
import io.celer.tcp.Handler;
import io.celer.tcp.TcpClient;
import io.celer.tcp.TcpConfig;

/**
 * The front server's pipelined connection to one back-end: the requests sent on it wait in a queue in the
 * order sent, which is the order the back-end answers them in.
 */
final class BackendLink implements Handler
{
    private final FanoutServer server;
    private final RequestSlots slots;
    private final TcpClient client;
    private final IntFifo pending;
    private final String address;
    private volatile long answered;
    private boolean leaving;
    private boolean retired;

    BackendLink(
        final FanoutServer server,
        final Reactor reactor,
        final RequestSlots slots,
        final String host,
        final int port,
        final long reconnectDelayMillis,
        final int maxPending)
    {
        this.server = server;
        this.slots = slots;
        this.pending = new IntFifo(maxPending);
        this.address = host + ":" + port;
        final TcpConfig config = new TcpConfig()
            .framing(() -> new LineFraming(FanoutServer.MAX_ANSWER_LENGTH))
            // A back-end that lags is skipped for now, not dropped: its requests are already on their way.
            .disconnectOnFullWriteBuffer(false)
            .reconnectDelayMillis(reconnectDelayMillis)
            .maxReconnectDelayMillis(Math.max(reconnectDelayMillis, 1_000))
            .connectTimeoutMillis(2_000);
        client = new TcpClient(reactor, host, port, config, this);
    }

    void open()
    {
        client.open();
    }

    void close()
    {
        client.close();
    }

    /**
     * Whether it can be sent to now; reads the connection, not the client, which learns of a close last.
     */
    boolean isUp()
    {
        return !leaving && client.connection().isOpen();
    }

    /** Takes no new request from now on; retired once it holds none. */
    void leave()
    {
        leaving = true;
        retireIfDone();
    }

    boolean isLeaving()
    {
        return leaving;
    }

    /**
     * Whether connected, as other threads may read it; a little behind {@link #isUp()} on a close.
     */
    boolean isConnected()
    {
        return client.isOpen();
    }

    int pending()
    {
        return pending.size();
    }

    long answered()
    {
        return answered;
    }

    String address()
    {
        return address;
    }

    /**
     * Writes the request and queues its slot for the answer; false when down or its write buffer is full.
     */
    boolean send(final int slot)
    {
        final Connection connection = client.connection();
        if (!connection.isOpen() || !connection.write(slots.bytes[slot], 0, slots.length[slot]))
        {
            return false;
        }
        pending.offer(slot);
        return true;
    }

    @Override
    public void opened(final Connection connection)
    {
        server.sendWaiting();
    }

    @Override
    public void message(final Connection connection, final ByteBuffer answer)
    {
        final int slot = pending.poll();
        if (slot == RequestSlots.NONE)
        {
            // Not an answer to anything sent: the back-end does not speak this protocol.
            return;
        }
        answered++;
        server.answer(slot, answer);
        retireIfDone();
    }

    @Override
    public void writable(final Connection connection, final int freeBytes)
    {
        server.sendWaiting();
    }

    /**
     * The requests it had not answered go to the other back-ends; it reconnects by itself unless leaving.
     */
    @Override
    public void closed(final Connection connection, final CloseReason reason)
    {
        int slot;
        while ((slot = pending.poll()) != RequestSlots.NONE)
        {
            server.resend(slot);
        }
        retireIfDone();
    }

    private void retireIfDone()
    {
        if (leaving && !retired && pending.isEmpty())
        {
            retired = true;
            server.retire(this);
        }
    }

    @Override
    public String toString()
    {
        return "BackendLink[" + address + "]";
    }
}
