package io.celer.bench.latency;

import java.util.Locale;

import io.celer.bench.peer.PingSession;

/**
 * What a latency run sends its ping-pong over.
 */
enum Protocol
{
    /** A TCP connection: messages cut by fixed-size framing, nothing lost. */
    TCP,
    /**
     * UDP datagrams: one message per datagram; a datagram may be lost, and the client sends again after
     * {@link #RESEND_AFTER_MILLIS} without an echo.
     */
    UDP;

    /** How long a UDP client waits for an echo before it counts the datagram lost and sends another. */
    static final int RESEND_AFTER_MILLIS = PingSession.RESEND_AFTER_MILLIS;

    /** The largest UDP payload over IPv4. */
    static final int MAX_DATAGRAM = 65_507;

    /**
     * Its name in file names and on the command line.
     *
     * @return {@code tcp} or {@code udp}.
     */
    String id()
    {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Its name in titles.
     *
     * @return {@code TCP} or {@code UDP}.
     */
    String title()
    {
        return name();
    }

    /**
     * The {@code benchmark} field of its JSON.
     *
     * @return such as {@code udp-latency}.
     */
    String benchmark()
    {
        return id() + "-latency";
    }

    /**
     * Whether datagrams may be lost, so the peers resend and count losses.
     *
     * @return true for UDP.
     */
    boolean lossy()
    {
        return this == UDP;
    }
}
