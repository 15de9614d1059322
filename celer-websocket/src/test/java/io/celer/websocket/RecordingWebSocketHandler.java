package io.celer.websocket;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Records a WebSocket's events as text lines, for functional tests (it allocates); optionally echoes messages.
 */
public class RecordingWebSocketHandler implements WebSocketHandler
{
    final BlockingQueue<String> events = new LinkedBlockingQueue<>();
    /** The WebSocket, once open. */
    public volatile WebSocket socket;
    private final boolean echo;
    private final StringBuilder streamed = new StringBuilder();

    /**
     * A recorder.
     *
     * @param echo whether it echoes each whole message back.
     */
    public RecordingWebSocketHandler(final boolean echo)
    {
        this.echo = echo;
    }

    @Override
    public void opened(final WebSocket socket)
    {
        this.socket = socket;
        events.add("opened");
    }

    @Override
    public void text(final WebSocket socket, final Utf8Text message)
    {
        events.add("text:" + message);
        if (echo)
        {
            socket.sendText(message.bytes());
        }
    }

    @Override
    public void binary(final WebSocket socket, final ByteBuffer message)
    {
        final byte[] bytes = new byte[message.remaining()];
        message.get(message.position(), bytes);
        events.add(binaryEvent(bytes));
        if (echo)
        {
            socket.sendBinary(message);
        }
    }

    @Override
    public void fragment(final WebSocket socket, final ByteBuffer chunk, final boolean text, final boolean last)
    {
        final byte[] bytes = new byte[chunk.remaining()];
        chunk.get(bytes);
        streamed.append(new String(bytes, StandardCharsets.ISO_8859_1));
        if (last)
        {
            events.add("streamed:" + (text ? "text:" : "binary:") + streamed.length() + " bytes " +
                streamed.toString().hashCode());
            streamed.setLength(0);
        }
    }

    @Override
    public void ping(final WebSocket socket, final ByteBuffer payload)
    {
        events.add("ping:" + StandardCharsets.UTF_8.decode(payload));
    }

    @Override
    public void pong(final WebSocket socket, final ByteBuffer payload)
    {
        events.add("pong:" + StandardCharsets.UTF_8.decode(payload));
    }

    @Override
    public void closing(final WebSocket socket, final int code, final Utf8Text reason)
    {
        events.add("closing:" + code + ":" + reason);
    }

    @Override
    public void closed(final WebSocket socket, final int code)
    {
        events.add("closed:" + code);
    }

    /**
     * The event a whole binary message is recorded as: its hex, or past 64 bytes its length and hash.
     *
     * @param bytes the message.
     * @return the event.
     */
    public static String binaryEvent(final byte[] bytes)
    {
        return "binary:" + (bytes.length > 64 ? bytes.length + " bytes " + java.util.Arrays.hashCode(bytes) :
            HexFormat.of().formatHex(bytes));
    }

    /**
     * The next event, waiting for it up to 30 seconds.
     *
     * @return the event.
     * @throws InterruptedException if interrupted while waiting.
     */
    public String next() throws InterruptedException
    {
        final String event = events.poll(30, TimeUnit.SECONDS);
        if (event == null)
        {
            throw new AssertionError("no event within 30 s");
        }
        return event;
    }
}
