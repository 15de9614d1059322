package io.celer.tcp;

import java.io.IOException;

import io.celer.reactor.TimerCallback;

/**
 * The timeouts of one TCP connection: the handler's event and read timeouts, and the connect, handshake and
 * close-linger bounds that end it.
 *
 * <p>Reads only stamp the time ({@link #readAt}); the read timer checks the stamp when it fires, so a busy
 * connection never touches the timer wheel.
 *
 * <p>The connect, handshake and linger bounds belong to phases that follow one another (connecting, the TLS
 * handshake, closing), so they share one timer and a phase: every connection holds this object for life, and one
 * id field where three would do is memory on each of thousands of idle connections. A linger that starts during
 * the handshake replaces its bound: the connection is closing either way.
 */
final class ConnectionTimers implements TimerCallback
{
    private static final long NO_TIMER = Long.MIN_VALUE;
    private static final byte CONNECT = 1;
    private static final byte HANDSHAKE = 2;
    private static final byte LINGER = 3;

    /** Its reactor and config too, reached through it: see TcpConnection. */
    private final TcpConnection connection;
    private long eventTimer = NO_TIMER;
    private long readTimer = NO_TIMER;
    /** The bound of the phase the connection is in (connecting, its handshake or lingering), if any. */
    private long phaseTimer = NO_TIMER;
    private byte phase;
    private long sendTimer = NO_TIMER;
    private long lastSentMillis;
    private long readTimeoutMillis;
    private boolean failOnSilence;
    private boolean handshakeExpired;
    private long lastReadMillis;

    ConnectionTimers(final TcpConnection connection)
    {
        this.connection = connection;
    }

    /**
     * A new channel: no read timeout until the handler sets one.
     */
    void reset()
    {
        readTimeoutMillis = 0;
        failOnSilence = false;
    }

    /**
     * The connection is open: arms the config's read timeout, if any, which fails the connection on silence.
     */
    void opened()
    {
        if (connection.config.readTimeoutMillis() > 0)
        {
            setReadTimeout(connection.config.readTimeoutMillis());
            failOnSilence = true;
        }
    }

    /**
     * Something was read, or reading starts (again): the silence counts from now.
     *
     * @param nowMillis the reactor clock.
     */
    void readAt(final long nowMillis)
    {
        lastReadMillis = nowMillis;
    }

    void startConnect()
    {
        startPhase(CONNECT, connection.config.connectTimeoutMillis());
    }

    void connected()
    {
        endPhase(CONNECT);
    }

    void startHandshake()
    {
        startPhase(HANDSHAKE, connection.config.handshakeTimeoutMillis());
    }

    void handshakeDone()
    {
        endPhase(HANDSHAKE);
        sendTimer = cancel(sendTimer);
    }

    private void startPhase(final byte next, final long delayMillis)
    {
        cancel(phaseTimer);
        phase = next;
        phaseTimer = connection.reactor.schedule(delayMillis, this);
    }

    /** Ends a phase's bound, unless a later phase has replaced it already. */
    private void endPhase(final byte ended)
    {
        if (phase == ended)
        {
            phaseTimer = cancel(phaseTimer);
            phase = 0;
        }
    }

    /**
     * The socket stopped taking the bytes waiting for it: the send timeout counts from now.
     *
     * @param nowMillis the reactor clock.
     */
    void startSend(final long nowMillis)
    {
        lastSentMillis = nowMillis;
        if (sendTimer == NO_TIMER && connection.config.sendTimeoutMillis() > 0)
        {
            sendTimer = connection.reactor.schedule(connection.config.sendTimeoutMillis(), this);
        }
    }

    /**
     * A lagging socket took some bytes: the send timeout counts from now.
     *
     * @param nowMillis the reactor clock.
     */
    void sentAt(final long nowMillis)
    {
        lastSentMillis = nowMillis;
    }

    /**
     * Nothing waits for the socket any more.
     */
    void stopSend()
    {
        sendTimer = cancel(sendTimer);
    }

    void startLinger()
    {
        startPhase(LINGER, connection.config.closeLingerMillis());
    }

    void setEventTimeout(final long delayMillis)
    {
        cancel(eventTimer);
        eventTimer = connection.isOpen() ? connection.reactor.schedule(delayMillis, this) : NO_TIMER;
    }

    void cancelEventTimeout()
    {
        eventTimer = cancel(eventTimer);
    }

    void setReadTimeout(final long timeoutMillis)
    {
        if (timeoutMillis < 0)
        {
            throw new IllegalArgumentException("read timeout must not be negative: " + timeoutMillis);
        }
        readTimer = cancel(readTimer);
        readTimeoutMillis = timeoutMillis;
        failOnSilence = false;
        if (timeoutMillis > 0 && connection.isOpen())
        {
            lastReadMillis = connection.reactor.nowMillis();
            readTimer = connection.reactor.schedule(timeoutMillis, this);
        }
    }

    /**
     * The connection closed: no timer of it may fire any more.
     */
    void cancelAll()
    {
        eventTimer = cancel(eventTimer);
        readTimer = cancel(readTimer);
        phaseTimer = cancel(phaseTimer);
        phase = 0;
    }

    @Override
    public void onTimer(final long timerId, final long nowMillis)
    {
        try
        {
            if (timerId == eventTimer)
            {
                eventTimer = NO_TIMER;
                connection.handler.eventTimeout(connection, nowMillis);
            }
            else if (timerId == readTimer)
            {
                onReadTimer(nowMillis);
            }
            else if (timerId == phaseTimer)
            {
                onPhaseTimer();
            }
            else if (timerId == sendTimer)
            {
                onSendTimer(nowMillis);
            }
        }
        catch (final Throwable t)
        {
            connection.fail(CloseReason.HANDLER_ERROR, t);
        }
    }

    private void onPhaseTimer()
    {
        final byte ended = phase;
        phaseTimer = NO_TIMER;
        phase = 0;
        switch (ended)
        {
            case CONNECT -> connection.fail(CloseReason.CONNECT_FAILED, new IOException("connect to " +
                connection.remoteAddress() + " timed out after " + connection.config.connectTimeoutMillis() + " ms"));
            case HANDSHAKE ->
            {
                handshakeExpired = true;
                connection.fail(CloseReason.TLS_ERROR, new javax.net.ssl.SSLException("handshake with " +
                    connection.remoteAddress() + " did not complete within " +
                    connection.config.handshakeTimeoutMillis() + " ms"));
            }
            case LINGER -> connection.lingerExpired();
            default ->
            {
                // No phase: a timer cancelled after it was due; nothing to end.
            }
        }
    }

    private void onSendTimer(final long nowMillis)
    {
        final long stuckFor = nowMillis - lastSentMillis;
        if (stuckFor >= connection.config.sendTimeoutMillis())
        {
            sendTimer = NO_TIMER;
            connection.fail(CloseReason.SEND_TIMEOUT, new IOException("the peer took none of the bytes waiting " +
                "for it for " + stuckFor + " ms (sendTimeoutMillis " + connection.config.sendTimeoutMillis() + ")"));
        }
        else
        {
            sendTimer = connection.reactor.schedule(connection.config.sendTimeoutMillis() - stuckFor, this);
        }
    }

    private void onReadTimer(final long nowMillis)
    {
        if (connection.isReadPaused())
        {
            // Not silence: this side is not reading. The clock starts again on resume.
            readTimer = connection.reactor.schedule(readTimeoutMillis, this);
            return;
        }
        final long silentFor = nowMillis - lastReadMillis;
        if (silentFor >= readTimeoutMillis && failOnSilence)
        {
            readTimer = NO_TIMER;
            connection.fail(CloseReason.READ_TIMEOUT, new IOException("nothing heard from the peer for " + silentFor +
                " ms (readTimeoutMillis " + readTimeoutMillis + ")"));
        }
        else if (silentFor >= readTimeoutMillis)
        {
            readTimer = connection.reactor.schedule(readTimeoutMillis, this);
            lastReadMillis = nowMillis;
            connection.handler.readTimeout(connection, nowMillis);
        }
        else
        {
            readTimer = connection.reactor.schedule(readTimeoutMillis - silentFor, this);
        }
    }

    private long cancel(final long timerId)
    {
        if (timerId != NO_TIMER)
        {
            connection.reactor.cancelTimer(timerId);
        }
        return NO_TIMER;
    }

    /**
     * Whether the handshake ran out of its time: told apart in the counters from a handshake the engine refused.
     */
    boolean handshakeExpired()
    {
        return handshakeExpired;
    }
}
