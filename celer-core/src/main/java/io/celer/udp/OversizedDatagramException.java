package io.celer.udp;

import java.net.InetSocketAddress;

/**
 * A datagram larger than the endpoint's receive buffer arrived; it was dropped.
 */
public final class OversizedDatagramException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final transient InetSocketAddress sender;

    /**
     * Builds the exception.
     *
     * @param sender   where the datagram came from.
     * @param maxBytes the largest datagram the endpoint takes.
     */
    public OversizedDatagramException(final InetSocketAddress sender, final int maxBytes)
    {
        super("datagram from " + sender + " is larger than the " + maxBytes + " bytes this endpoint takes; dropped");
        this.sender = sender;
    }

    /**
     * Where the datagram came from.
     *
     * @return the sender.
     */
    public InetSocketAddress sender()
    {
        return sender;
    }
}
