package io.celer.tcp;

import java.io.IOException;

/**
 * Thrown by a {@link Transport} whose peer went over one of its bounds (TLS renegotiations too often, say): the
 * connection closes with the reason it carries instead of an I/O or TLS error.
 */
public final class TransportLimitException extends IOException
{
    private static final long serialVersionUID = 1L;

    private final transient CloseReason reason;

    /**
     * An exception for a peer over a bound.
     *
     * @param reason  the reason the connection closes with.
     * @param message what bound, and by how much.
     */
    public TransportLimitException(final CloseReason reason, final String message)
    {
        super(message);
        this.reason = reason;
    }

    /**
     * The reason the connection closes with.
     *
     * @return the reason.
     */
    public CloseReason reason()
    {
        return reason;
    }
}
