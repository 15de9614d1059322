package io.celer.websocket.outbound;

import java.nio.ByteBuffer;

import io.celer.reactor.ReactorCallback;
import io.celer.websocket.internal.Opcode;

/**
 * A pre-allocated message on its way from a producer thread to a reactor's clients: claimed from a
 * {@link Publisher}, filled by the producer, run by the reactor once published. Reused: valid to the producer only
 * between its claim and its publish.
 */
public final class Publication implements ReactorCallback
{
    private static final long NOBODY = Long.MIN_VALUE;

    private final Fanout fanout;
    private final ByteBuffer payload;
    private long target;
    private boolean everyone;
    private int kind;

    Publication(final Fanout fanout, final int capacity)
    {
        this.fanout = fanout;
        this.payload = ByteBuffer.allocate(capacity);
    }

    /**
     * Empties it for the next message: binary, to nobody until addressed.
     */
    void reset()
    {
        payload.clear();
        target = NOBODY;
        everyone = false;
        kind = Opcode.BINARY;
    }

    /**
     * Makes another member's publication the same message: same bytes, kind and address.
     *
     * @param copy a claimed publication whose payload is at least as large.
     */
    void copyTo(final Publication copy)
    {
        final int length = payload.position();
        copy.payload.clear();
        copy.payload.put(0, payload, 0, length).position(length);
        copy.target = target;
        copy.everyone = everyone;
        copy.kind = kind;
    }

    /**
     * Producer: the buffer to put the message into with relative puts; the bytes before its position are sent.
     *
     * @return the buffer, empty after a claim, as large as the configured largest message.
     */
    public ByteBuffer payload()
    {
        return payload;
    }

    /**
     * Producer: addresses it to one client; a client that has gone by then does not get it.
     *
     * @param clientId the client's id ({@link Outbox#id()}).
     * @return this.
     */
    public Publication to(final long clientId)
    {
        target = clientId;
        everyone = false;
        return this;
    }

    /**
     * Producer: addresses it to every client open when the reactor runs it.
     *
     * @return this.
     */
    public Publication toAll()
    {
        everyone = true;
        return this;
    }

    /**
     * Producer: sends it as a text message; the payload must be UTF-8 (not checked).
     *
     * @return this.
     */
    public Publication text()
    {
        kind = Opcode.TEXT;
        return this;
    }

    /**
     * Producer: sends it as a binary message (the default).
     *
     * @return this.
     */
    public Publication binary()
    {
        kind = Opcode.BINARY;
        return this;
    }

    /**
     * Reactor thread: hands the message to its client or clients; one never addressed goes nowhere.
     *
     * @param nowMillis the reactor clock.
     */
    @Override
    public void onCallback(final long nowMillis)
    {
        payload.flip();
        if (everyone)
        {
            fanout.broadcast(kind, payload);
        }
        else if (target != NOBODY)
        {
            fanout.send(target, kind, payload);
        }
    }
}
