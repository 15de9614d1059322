package io.celer.websocket.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.celer.websocket.Utf8Text;
import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketHandler;

/**
 * Records what a client session hears, as strings a test reads in order.
 */
final class Events implements WebSocketHandler
{
    private final BlockingQueue<String> events = new LinkedBlockingQueue<>();

    @Override
    public void opened(final WebSocket socket)
    {
        events.add("opened");
    }

    @Override
    public void text(final WebSocket socket, final Utf8Text message)
    {
        events.add("text:" + message);
    }

    @Override
    public void binary(final WebSocket socket, final ByteBuffer message)
    {
        events.add("binary:" + message.remaining());
    }

    @Override
    public void closing(final WebSocket socket, final int code, final Utf8Text reason)
    {
        events.add("closing:" + code);
    }

    @Override
    public void closed(final WebSocket socket, final int code)
    {
        events.add("closed:" + code);
    }

    String next() throws InterruptedException
    {
        final String event = events.poll(30, TimeUnit.SECONDS);
        assertThat(event).as("an event within 30 s").isNotNull();
        return event;
    }
}
