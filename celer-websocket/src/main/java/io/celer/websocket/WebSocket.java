package io.celer.websocket;

import java.nio.ByteBuffer;

import io.celer.tcp.Connection;

/**
 * One open WebSocket, for sending; every method is for the reactor thread only and allocates nothing.
 *
 * <p>Sending writes a whole frame into the connection's write buffer, or nothing when it has no room (false);
 * what is written leaves at the end of the reactor cycle, or at {@link #flush()}. A message larger than the
 * write buffer is sent in fragments ({@link #sendFragment}). After {@link #close} nothing more is sent.
 */
public interface WebSocket
{
    /**
     * The connection under this WebSocket.
     *
     * @return the connection.
     */
    Connection connection();

    /**
     * Whether this is the server's end.
     *
     * @return true on a server.
     */
    boolean isServer();

    /**
     * The path of the opening handshake's request, without the query: what the client asked for.
     *
     * @return the path, {@code /} at the least.
     */
    String path();

    /**
     * The subprotocol the opening handshake agreed on.
     *
     * @return its name, or null when none was.
     */
    String subprotocol();

    /**
     * Whether messages may still be sent: open, and no close frame sent.
     *
     * @return true while open.
     */
    boolean isOpen();

    /**
     * Sends a text message, encoded to UTF-8 (an unpaired surrogate becomes U+FFFD).
     *
     * @param text the text.
     * @return false when the write buffer has no room now or the WebSocket is closing.
     * @throws IllegalArgumentException if the frame could never fit the write buffer.
     * @throws IllegalStateException    while a fragmented message is being sent.
     */
    boolean sendText(CharSequence text);

    /**
     * Sends a text message already encoded as UTF-8 (not checked: the caller vouches for it).
     *
     * @param utf8 the bytes between position and limit; position moves to limit when sent.
     * @return false when the write buffer has no room now or the WebSocket is closing.
     * @throws IllegalArgumentException if the frame could never fit the write buffer.
     * @throws IllegalStateException    while a fragmented message is being sent.
     */
    boolean sendText(ByteBuffer utf8);

    /**
     * Sends a binary message.
     *
     * @param data the bytes between position and limit; position moves to limit when sent.
     * @return false when the write buffer has no room now or the WebSocket is closing.
     * @throws IllegalArgumentException if the frame could never fit the write buffer.
     * @throws IllegalStateException    while a fragmented message is being sent.
     */
    boolean sendBinary(ByteBuffer data);

    /**
     * Sends one fragment of a message: the first starts it (text or binary), the one marked last ends it.
     * With permessage-deflate each fragment is compressed and flushed on its own (the message's first carries
     * RSV1), and needs room for its worst case, about 1.14 times its length, in the write buffer. A text
     * message's fragments together must be valid UTF-8.
     *
     * @param data the bytes between position and limit; position moves to limit when sent.
     * @param text whether the message is text (read on the first fragment).
     * @param last whether this fragment ends the message.
     * @return false when the write buffer has no room now or the WebSocket is closing.
     * @throws IllegalArgumentException if the fragment could never fit the write buffer.
     */
    boolean sendFragment(ByteBuffer data, boolean text, boolean last);

    /**
     * Sends one fragment of a text message, encoded to UTF-8; do not split a surrogate pair between fragments.
     *
     * @param text the text.
     * @param last whether this fragment ends the message.
     * @return false when the write buffer has no room now or the WebSocket is closing.
     */
    boolean sendTextFragment(CharSequence text, boolean last);

    /**
     * Sends a ping.
     *
     * @param payload up to 125 bytes between position and limit.
     * @return false when the write buffer has no room now or the WebSocket is closing.
     */
    boolean ping(ByteBuffer payload);

    /**
     * Sends an unsolicited pong (pings are answered without asking).
     *
     * @param payload up to 125 bytes between position and limit.
     * @return false when the write buffer has no room now or the WebSocket is closing.
     */
    boolean pong(ByteBuffer payload);

    /**
     * Starts the close handshake: sends a close frame once, then waits for the peer's (up to the close timeout).
     *
     * @param code   a code valid on the wire, or {@link CloseCode#NO_STATUS} for none.
     * @param reason up to 123 bytes of UTF-8; may be empty.
     * @return false when a close frame was already sent.
     */
    boolean close(int code, CharSequence reason);

    /**
     * Moves what was sent to the socket now rather than at the end of the reactor cycle.
     */
    void flush();

    /**
     * Application state attached to this WebSocket.
     *
     * @param <T> its type.
     * @return what {@link #attach} stored, or null.
     */
    <T> T attachment();

    /**
     * Attaches application state.
     *
     * @param attachment anything, or null.
     */
    void attach(Object attachment);
}
