package io.celer.reactor;

import java.io.IOException;

/**
 * A socket channel that its transport gives out again after its connection ends, with its key and its socket
 * object, so that an accept allocates nothing: what the native transports' accepted channels are. A connection
 * never closes it with {@code close()}, whose closed state the JDK never resets, but with these two calls, in
 * this order, on its reactor's thread.
 */
public interface ReusableChannel
{
    /**
     * Closes the socket and takes it out of its selector, as {@code close()} would, leaving the key to the
     * transport: the caller must not cancel it. The remote address stays readable until {@link #recycle}.
     *
     * @throws IOException if the kernel's close fails; the socket is closed all the same.
     */
    void closeSocket() throws IOException;

    /**
     * Hands the channel, its socket closed, back to its transport for a later accept; the caller keeps no
     * reference to it or to its key.
     */
    void recycle();
}
