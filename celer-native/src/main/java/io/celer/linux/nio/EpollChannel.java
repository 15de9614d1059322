package io.celer.linux.nio;

/**
 * A channel of this provider, as its selector sees it: a descriptor, and whether it listens.
 */
interface EpollChannel
{
    /**
     * Its socket.
     *
     * @return the socket.
     */
    NativeSocket nativeSocket();

    /**
     * Whether it accepts connections rather than carrying one.
     *
     * @return true for a listener.
     */
    boolean listens();
}
