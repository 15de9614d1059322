package io.celer.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.WebSocket;
import java.net.http.WebSocket.Listener;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * What the JDK's WebSocket client hears, as strings in arrival order, partial messages joined: {@code text:T},
 * {@code binary:N} (its length), {@code pong:P} and {@code close:CODE:REASON}. The JDK's client is an independent
 * implementation to test Celer's servers against.
 */
public final class JdkWebSocketEvents implements Listener
{
    private final BlockingQueue<String> events = new LinkedBlockingQueue<>();
    private final StringBuilder text = new StringBuilder();
    private int binaryBytes;

    /**
     * The next event, waiting for it up to 60 seconds.
     *
     * @return the event.
     * @throws InterruptedException if interrupted while waiting.
     */
    public String next() throws InterruptedException
    {
        final String event = events.poll(60, TimeUnit.SECONDS);
        assertThat(event).as("an event within 60 s").isNotNull();
        return event;
    }

    /**
     * The next event, if one comes within the time given.
     *
     * @param timeout how long to wait.
     * @param unit    its unit.
     * @return the event, or null.
     * @throws InterruptedException if interrupted while waiting.
     */
    public String poll(final long timeout, final TimeUnit unit) throws InterruptedException
    {
        return events.poll(timeout, unit);
    }

    /** Joins a text message's parts; the last one completes it. */
    @Override
    public CompletionStage<?> onText(final WebSocket socket, final CharSequence data, final boolean last)
    {
        text.append(data);
        if (last)
        {
            events.add("text:" + text);
            text.setLength(0);
        }
        socket.request(1);
        return null;
    }

    /** Counts a binary message's bytes; the last part completes it. */
    @Override
    public CompletionStage<?> onBinary(final WebSocket socket, final ByteBuffer data, final boolean last)
    {
        binaryBytes += data.remaining();
        if (last)
        {
            events.add("binary:" + binaryBytes);
            binaryBytes = 0;
        }
        socket.request(1);
        return null;
    }

    /** Records a pong's payload as text. */
    @Override
    public CompletionStage<?> onPong(final WebSocket socket, final ByteBuffer message)
    {
        events.add("pong:" + StandardCharsets.UTF_8.decode(message));
        socket.request(1);
        return null;
    }

    /** Records the server's close. */
    @Override
    public CompletionStage<?> onClose(final WebSocket socket, final int statusCode, final String reason)
    {
        events.add("close:" + statusCode + ":" + reason);
        return null;
    }
}
