package io.celer.websocket;

import java.nio.ByteBuffer;

/**
 * The application's side of a WebSocket: its messages and its life, on the reactor thread. Every method has
 * a default that does nothing. Buffers and text passed in are valid only during the call.
 */
public interface WebSocketHandler
{
    /**
     * The WebSocket is open (the handshake is done).
     *
     * @param socket the WebSocket.
     */
    default void opened(final WebSocket socket)
    {
    }

    /**
     * A whole text message, validated UTF-8.
     *
     * @param socket  the WebSocket.
     * @param message the text; its bytes through {@link Utf8Text#bytes()}. A view the reactor's sessions share,
     *                valid only during this call: {@code toString()} keeps it.
     */
    default void text(final WebSocket socket, final Utf8Text message)
    {
    }

    /**
     * A whole binary message.
     *
     * @param socket  the WebSocket.
     * @param message the bytes between position and limit.
     */
    default void binary(final WebSocket socket, final ByteBuffer message)
    {
    }

    /**
     * A chunk of a message as it arrives, when the session streams fragments (see
     * {@link WebSocketConfig#streamFragments}). Text chunks are valid UTF-8 so far, but may end mid-character;
     * the message ends at the chunk marked last (possibly empty).
     *
     * @param socket the WebSocket.
     * @param chunk  the bytes between position and limit.
     * @param text   whether the message is text.
     * @param last   whether this chunk ends the message.
     */
    default void fragment(final WebSocket socket, final ByteBuffer chunk, final boolean text, final boolean last)
    {
    }

    /**
     * A ping arrived; it has already been answered with a pong.
     *
     * @param socket  the WebSocket.
     * @param payload the ping's payload.
     */
    default void ping(final WebSocket socket, final ByteBuffer payload)
    {
    }

    /**
     * A pong arrived.
     *
     * @param socket  the WebSocket.
     * @param payload the pong's payload.
     */
    default void pong(final WebSocket socket, final ByteBuffer payload)
    {
    }

    /**
     * The peer's close frame arrived: it started the close handshake, or answered ours. No message follows.
     *
     * @param socket the WebSocket.
     * @param code   its code, {@link CloseCode#NO_STATUS} when it carried none.
     * @param reason its reason, maybe empty; a view valid only during this call, as {@link #text}'s.
     */
    default void closing(final WebSocket socket, final int code, final Utf8Text reason)
    {
    }

    /**
     * A send returned false because the write buffer was full, and the socket has since taken some of it: time to
     * send again (the rest of a large message, say, in fragments).
     *
     * @param socket    the WebSocket.
     * @param freeBytes room now free in the write buffer.
     */
    default void writable(final WebSocket socket, final int freeBytes)
    {
    }

    /**
     * The WebSocket is closed and its connection gone; called once.
     *
     * @param socket the WebSocket.
     * @param code   the peer's close code when its close frame arrived, else the code this side failed the
     *               connection with, else {@link CloseCode#ABNORMAL}.
     */
    default void closed(final WebSocket socket, final int code)
    {
    }
}
