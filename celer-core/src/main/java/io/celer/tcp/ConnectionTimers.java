package io.celer.tcp;

import java.io.IOException;

/**
 * The timeouts of one TCP connection: the handler's event and read timeouts, and the connect, handshake and
 * close-linger bounds that end it.
 *
 * <p>Reads only stamp the time ({@link #readAt}); the read timer checks the stamp when it fires, so a busy
 * connection never touches the timer wheel.
 *
 * <p>The connect, handshake and linger bounds belong to phases that follow one another (connecting, the TLS
 * handshake, closing), so they share one timer and a phase: one id field where three would do is memory on each
 * of thousands of idle connections. A linger that starts during the handshake replaces its bound: the connection
 * is closing either way.
 *
 * <p>Steps only, as the reader's and the writer's: the timer ids and times they work on are fields of the
 * connection, which is itself the callback its timers call, so that an idle connection holds no timers object.
 */
final class ConnectionTimers
{
    /** A timer field holding no timer. */
    static final long NO_TIMER = Long.MIN_VALUE;
    private static final byte CONNECT = 1;
    private static final byte HANDSHAKE = 2;
    private static final byte LINGER = 3;

    private ConnectionTimers()
    {
    }

    /**
     * A new channel: no read timeout until the handler sets one.
     */
    static void reset(final TcpConnection connection)
    {
        connection.readTimeoutMillis = 0;
        connection.failOnSilence = false;
    }

    /**
     * The connection is open: arms the config's read timeout, if any, which fails the connection on silence.
     */
    static void opened(final TcpConnection connection)
    {
        if (connection.config.readTimeoutMillis() > 0)
        {
            setReadTimeout(connection, connection.config.readTimeoutMillis());
            connection.failOnSilence = true;
        }
    }

    /**
     * Something was read, or reading starts (again): the silence counts from now.
     *
     * @param nowMillis the reactor clock.
     */
    static void readAt(final TcpConnection connection, final long nowMillis)
    {
        connection.lastReadMillis = nowMillis;
    }

    static void startConnect(final TcpConnection connection)
    {
        startPhase(connection, CONNECT, connection.config.connectTimeoutMillis());
    }

    static void connected(final TcpConnection connection)
    {
        endPhase(connection, CONNECT);
    }

    static void startHandshake(final TcpConnection connection)
    {
        startPhase(connection, HANDSHAKE, connection.config.handshakeTimeoutMillis());
    }

    static void handshakeDone(final TcpConnection connection)
    {
        endPhase(connection, HANDSHAKE);
        connection.sendTimer = cancel(connection, connection.sendTimer);
    }

    private static void startPhase(final TcpConnection connection, final byte next, final long delayMillis)
    {
        cancel(connection, connection.phaseTimer);
        connection.timerPhase = next;
        connection.phaseTimer = connection.reactor.schedule(delayMillis, connection);
    }

    /** Ends a phase's bound, unless a later phase has replaced it already. */
    private static void endPhase(final TcpConnection connection, final byte ended)
    {
        if (connection.timerPhase == ended)
        {
            connection.phaseTimer = cancel(connection, connection.phaseTimer);
            connection.timerPhase = 0;
        }
    }

    /**
     * The socket stopped taking the bytes waiting for it: the send timeout counts from now.
     *
     * @param nowMillis the reactor clock.
     */
    static void startSend(final TcpConnection connection, final long nowMillis)
    {
        connection.lastSentMillis = nowMillis;
        if (connection.sendTimer == NO_TIMER && connection.config.sendTimeoutMillis() > 0)
        {
            connection.sendTimer = connection.reactor.schedule(connection.config.sendTimeoutMillis(), connection);
        }
    }

    /**
     * A lagging socket took some bytes: the send timeout counts from now.
     *
     * @param nowMillis the reactor clock.
     */
    static void sentAt(final TcpConnection connection, final long nowMillis)
    {
        connection.lastSentMillis = nowMillis;
    }

    /**
     * Nothing waits for the socket any more.
     */
    static void stopSend(final TcpConnection connection)
    {
        connection.sendTimer = cancel(connection, connection.sendTimer);
    }

    static void startLinger(final TcpConnection connection)
    {
        startPhase(connection, LINGER, connection.config.closeLingerMillis());
    }

    static void setEventTimeout(final TcpConnection connection, final long delayMillis)
    {
        cancel(connection, connection.eventTimer);
        connection.eventTimer =
            connection.isOpen() ? connection.reactor.schedule(delayMillis, connection) : NO_TIMER;
    }

    static void cancelEventTimeout(final TcpConnection connection)
    {
        connection.eventTimer = cancel(connection, connection.eventTimer);
    }

    static void setReadTimeout(final TcpConnection connection, final long timeoutMillis)
    {
        if (timeoutMillis < 0)
        {
            throw new IllegalArgumentException("read timeout must not be negative: " + timeoutMillis);
        }
        connection.readTimer = cancel(connection, connection.readTimer);
        connection.readTimeoutMillis = timeoutMillis;
        connection.failOnSilence = false;
        if (timeoutMillis > 0 && connection.isOpen())
        {
            connection.lastReadMillis = connection.reactor.nowMillis();
            connection.readTimer = connection.reactor.schedule(timeoutMillis, connection);
        }
    }

    /**
     * The connection closed: no timer of it may fire any more.
     */
    static void cancelAll(final TcpConnection connection)
    {
        connection.eventTimer = cancel(connection, connection.eventTimer);
        connection.readTimer = cancel(connection, connection.readTimer);
        connection.phaseTimer = cancel(connection, connection.phaseTimer);
        connection.timerPhase = 0;
    }

    static void onTimer(final TcpConnection connection, final long timerId, final long nowMillis)
    {
        try
        {
            if (timerId == connection.eventTimer)
            {
                connection.eventTimer = NO_TIMER;
                connection.handler.eventTimeout(connection, nowMillis);
            }
            else if (timerId == connection.readTimer)
            {
                onReadTimer(connection, nowMillis);
            }
            else if (timerId == connection.phaseTimer)
            {
                onPhaseTimer(connection);
            }
            else if (timerId == connection.sendTimer)
            {
                onSendTimer(connection, nowMillis);
            }
        }
        catch (final Throwable t)
        {
            connection.fail(CloseReason.HANDLER_ERROR, t);
        }
    }

    private static void onPhaseTimer(final TcpConnection connection)
    {
        final byte ended = connection.timerPhase;
        connection.phaseTimer = NO_TIMER;
        connection.timerPhase = 0;
        switch (ended)
        {
            case CONNECT -> connection.fail(CloseReason.CONNECT_FAILED, new IOException("connect to " +
                connection.remoteAddress() + " timed out after " + connection.config.connectTimeoutMillis() + " ms"));
            case HANDSHAKE ->
            {
                connection.handshakeExpired = true;
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

    private static void onSendTimer(final TcpConnection connection, final long nowMillis)
    {
        final long stuckFor = nowMillis - connection.lastSentMillis;
        if (stuckFor >= connection.config.sendTimeoutMillis())
        {
            connection.sendTimer = NO_TIMER;
            connection.fail(CloseReason.SEND_TIMEOUT, new IOException("the peer took none of the bytes waiting " +
                "for it for " + stuckFor + " ms (sendTimeoutMillis " + connection.config.sendTimeoutMillis() + ")"));
        }
        else
        {
            connection.sendTimer =
                connection.reactor.schedule(connection.config.sendTimeoutMillis() - stuckFor, connection);
        }
    }

    private static void onReadTimer(final TcpConnection connection, final long nowMillis)
    {
        if (connection.isReadPaused())
        {
            // Not silence: this side is not reading. The clock starts again on resume.
            connection.readTimer = connection.reactor.schedule(connection.readTimeoutMillis, connection);
            return;
        }
        final long silentFor = nowMillis - connection.lastReadMillis;
        if (silentFor >= connection.readTimeoutMillis && connection.failOnSilence)
        {
            connection.readTimer = NO_TIMER;
            connection.fail(CloseReason.READ_TIMEOUT, new IOException("nothing heard from the peer for " +
                silentFor + " ms (readTimeoutMillis " + connection.readTimeoutMillis + ")"));
        }
        else if (silentFor >= connection.readTimeoutMillis)
        {
            connection.readTimer = connection.reactor.schedule(connection.readTimeoutMillis, connection);
            connection.lastReadMillis = nowMillis;
            connection.handler.readTimeout(connection, nowMillis);
        }
        else
        {
            connection.readTimer =
                connection.reactor.schedule(connection.readTimeoutMillis - silentFor, connection);
        }
    }

    private static long cancel(final TcpConnection connection, final long timerId)
    {
        if (timerId != NO_TIMER)
        {
            connection.reactor.cancelTimer(timerId);
        }
        return NO_TIMER;
    }
}
