package io.celer.test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.celer.tcp.CloseReason;
import io.celer.tcp.Connection;
import io.celer.tcp.Handler;

/**
 * A handler that records what happens, for tests; optionally echoes each message.
 */
public class RecordingHandler implements Handler
{
    /** Messages received, as ISO-8859-1 text, in order. */
    public final BlockingQueue<String> messages = new LinkedBlockingQueue<>();
    /** Events: {@code opened}, {@code closed:REASON}, {@code error:SimpleClassName:message}. */
    public final List<String> events = new CopyOnWriteArrayList<>();
    /** Errors received. */
    public final List<Throwable> errors = new CopyOnWriteArrayList<>();
    /** The last connection that opened. */
    public volatile Connection connection;

    private final boolean echo;

    /**
     * A handler that only records.
     */
    public RecordingHandler()
    {
        this(false);
    }

    /**
     * A handler that records and, if asked, echoes each message back.
     *
     * @param echo true to echo.
     */
    public RecordingHandler(final boolean echo)
    {
        this.echo = echo;
    }

    /**
     * A recording handler that sends a line, or a message of the connection's framing, as soon as it opens.
     *
     * @param greeting what to send.
     * @return the handler.
     */
    public static RecordingHandler sendingOnOpen(final String greeting)
    {
        return new RecordingHandler()
        {
            @Override
            public void opened(final Connection connection)
            {
                super.opened(connection);
                connection.send(greeting);
            }
        };
    }

    @Override
    public void opened(final Connection connection)
    {
        this.connection = connection;
        events.add("opened");
    }

    @Override
    public void closed(final Connection connection, final CloseReason reason)
    {
        events.add("closed:" + reason);
    }

    @Override
    public void message(final Connection connection, final ByteBuffer message)
    {
        final int start = message.position();
        final byte[] bytes = new byte[message.remaining()];
        message.get(bytes);
        messages.add(new String(bytes, StandardCharsets.ISO_8859_1));
        if (echo)
        {
            message.position(start);
            connection.send(message);
        }
    }

    @Override
    public void error(final Connection connection, final Throwable error)
    {
        errors.add(error);
        events.add("error:" + error.getClass().getSimpleName() + ":" + error.getMessage());
    }

    /**
     * Waits for the next message.
     *
     * @return the message.
     * @throws AssertionError if none arrives within the default bound.
     */
    public String nextMessage()
    {
        try
        {
            final String message = messages.poll(Await.DEFAULT.toMillis(), TimeUnit.MILLISECONDS);
            if (message == null)
            {
                throw new AssertionError("no message within " + Await.DEFAULT + "; events " + events);
            }
            return message;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new AssertionError(ex);
        }
    }

    /**
     * Waits until an event was recorded.
     *
     * @param event the event text.
     */
    public void awaitEvent(final String event)
    {
        Await.until(() -> "event " + event + " among " + events, () -> events.contains(event), Await.DEFAULT);
    }

    /**
     * Waits until a close was recorded.
     *
     * @return its reason.
     */
    public CloseReason awaitClosed()
    {
        Await.until(() -> "a close among " + events,
            () -> events.stream().anyMatch(e -> e.startsWith("closed:")), Await.DEFAULT);
        return events.stream().filter(e -> e.startsWith("closed:")).findFirst()
            .map(e -> CloseReason.valueOf(e.substring("closed:".length()))).orElseThrow();
    }
}
