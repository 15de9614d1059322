package io.celer.examples;

import java.io.PrintStream;

import io.celer.examples.cli.ClientOutcome;
import io.celer.framing.LineFraming;
import io.celer.reactor.Reactor;
import io.celer.tcp.Connection;
import io.celer.tcp.Handler;
import io.celer.tcp.TcpClient;
import io.celer.tcp.TcpConfig;

/**
 * Sends a number of fixed-size lines as fast as it can, prints the rate, and closes.
 *
 * <p>It overflows its write buffer on purpose: it writes until {@link Connection#write} refuses a message,
 * which happens when the socket cannot take bytes as fast as they come, and carries on from
 * {@link Handler#writable} when the socket drains. That needs {@code disconnectOnFullWriteBuffer}
 * off, which this client sets. It is done once every message is written and the write buffer is empty, so
 * the time counts bytes that reached the kernel, not bytes still queued in the application.
 *
 * <p>Messages are {@code 0123456789...} cut to the size, each followed by {@code \n}. Run it against
 * {@link DiscardServer} or any server that reads lines.
 */
public final class ThroughputClient implements Handler
{
    /** The default number of messages. */
    public static final int DEFAULT_MESSAGES = 5_000_000;

    /** The default message size, line end excluded. */
    public static final int DEFAULT_MESSAGE_SIZE = 256;

    private final TcpClient client;
    private final ClientOutcome outcome = new ClientOutcome();
    private final int messages;
    private final byte[] message;
    private final PrintStream out;

    private int sent;
    private long startNanos;
    private volatile int lagged;
    private volatile long elapsedNanos;
    private volatile boolean completed;

    /**
     * A client with the default buffers that prints to standard output.
     *
     * @param reactor     the reactor that runs it.
     * @param host        the server's host name or address.
     * @param port        the server's port.
     * @param messages    how many messages to send, at least 1.
     * @param messageSize bytes per message, line end excluded, at least 1.
     */
    public ThroughputClient(
        final Reactor reactor, final String host, final int port, final int messages, final int messageSize)
    {
        this(reactor, host, port, messages, messageSize, new TcpConfig(), System.out);
    }

    /**
     * A client.
     *
     * @param reactor     the reactor that runs it.
     * @param host        the server's host name or address.
     * @param port        the server's port.
     * @param messages    how many messages to send, at least 1.
     * @param messageSize bytes per message, line end excluded, at least 1.
     * @param config      buffer and socket settings, whose write buffer holds at least one message and its
     *                    line end; the client sets its framing, its read buffer (it reads nothing) and turns
     *                    {@code disconnectOnFullWriteBuffer} off.
     * @param out         where the result goes.
     */
    public ThroughputClient(
        final Reactor reactor,
        final String host,
        final int port,
        final int messages,
        final int messageSize,
        final TcpConfig config,
        final PrintStream out)
    {
        if (messages < 1)
        {
            throw new IllegalArgumentException("messages must be at least 1: " + messages);
        }
        if (messageSize < 1)
        {
            throw new IllegalArgumentException("message size must be at least 1: " + messageSize);
        }
        this.messages = messages;
        this.out = out;
        message = new byte[messageSize];
        for (int i = 0; i < messageSize; i++)
        {
            message[i] = (byte)('0' + i % 10);
        }
        config
            .framing(() -> new LineFraming(messageSize))
            .readBufferSize(messageSize + 2)
            .disconnectOnFullWriteBuffer(false);
        client = new TcpClient(reactor, host, port, config, outcome.recording(this));
    }

    /**
     * Starts connecting, from any thread; sending starts once connected.
     *
     * @return this.
     */
    public ThroughputClient open()
    {
        client.open();
        return this;
    }

    /**
     * Closes the connection, from any thread, whether or not all was sent.
     */
    public void close()
    {
        client.close();
    }

    /**
     * Whether every message was sent and left the write buffer.
     *
     * @return true on success.
     */
    public boolean completed()
    {
        return completed;
    }

    /**
     * How many times a write was refused because the write buffer was full: how often the connection lagged.
     *
     * @return the count.
     */
    public int laggedCount()
    {
        return lagged;
    }

    /**
     * Time from connected to all written and drained.
     *
     * @return nanoseconds, or 0 until completed.
     */
    public long elapsedNanos()
    {
        return elapsedNanos;
    }

    /**
     * Starts the clock and sends until the write buffer is full.
     */
    @Override
    public void opened(final Connection connection)
    {
        sent = 0;
        startNanos = System.nanoTime();
        sendMessages(connection);
    }

    /**
     * Sends more, or finishes once all is sent and the buffer has drained.
     */
    @Override
    public void writable(final Connection connection, final int freeBytes)
    {
        if (sent < messages)
        {
            sendMessages(connection);
        }
        else if (freeBytes == connection.writeBufferCapacity())
        {
            finish();
        }
    }

    private void sendMessages(final Connection connection)
    {
        while (sent < messages)
        {
            // All or nothing: a refused message was not written at all, and goes again on writable.
            if (!connection.write(message))
            {
                if (connection.isOpen())
                {
                    lagged++;
                }
                return;
            }
            sent++;
        }
        connection.flush();
        if (!connection.isLagging())
        {
            finish();
        }
        // Else the last bytes are still queued: writable finishes when they are gone.
    }

    private void finish()
    {
        elapsedNanos = System.nanoTime() - startNanos;
        completed = true;
        final long nanos = Math.max(1, elapsedNanos);
        final long bytes = (long)messages * (message.length + 1);
        out.printf("throughput-client: sent %,d messages of %d bytes in %,.3f s: %,d msgs/s, %,.1f MB/s" +
            " (write buffer full %,d times)%n", messages, message.length, nanos / 1e9,
            messages * 1_000_000_000L / nanos, bytes * 1e3 / nanos, lagged);
        client.close();
    }

    /**
     * How the connection ended, and a callback for when it does.
     *
     * @return the outcome, readable from any thread.
     */
    public ClientOutcome outcome()
    {
        return outcome;
    }
}
