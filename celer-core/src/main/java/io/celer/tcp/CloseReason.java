package io.celer.tcp;

/**
 * Why a connection closed, as told to {@link Handler#closed}.
 */
public enum CloseReason
{
    /** The application closed it. */
    LOCAL_CLOSE,
    /** The peer closed its side in order (end of stream). */
    PEER_CLOSED,
    /** The connection failed under I/O: reset by the peer, broken pipe, network error. */
    IO_ERROR,
    /** A client could not connect: refused, unreachable or timed out. */
    CONNECT_FAILED,
    /** The security layer failed: a TLS handshake (untrusted or expired certificate, host name mismatch, no
     * common protocol, a plaintext peer, a timeout) or a corrupt record. */
    TLS_ERROR,
    /**
     * A server had {@code TlsConfig.maxConcurrentHandshakes} handshakes running on the reactor and its
     * {@code handshakesOverLimit} policy is to close, counted in {@link TcpServer#refusedHandshakes()}.
     */
    HANDSHAKE_LIMIT,
    /**
     * The peer renegotiated (TLS 1.2) or updated its keys (TLS 1.3) more often than
     * {@code TlsConfig.maxRenegotiations} allows.
     */
    RENEGOTIATION_LIMIT,
    /** The peer's bytes broke the framing: a message too long or malformed. */
    FRAMING_ERROR,
    /** The handler threw; the exception went to {@link Handler#error}. */
    HANDLER_ERROR,
    /** A write did not fit in the write buffer and {@code disconnectOnFullWriteBuffer} is on. */
    WRITE_BUFFER_FULL,
    /** The peer took none of the bytes waiting for it within the send timeout. */
    SEND_TIMEOUT,
    /** No byte came from the peer within {@code TcpConfig.readTimeoutMillis}: a silent peer or a broken path. */
    READ_TIMEOUT,
    /**
     * No memory for a buffer the connection needed to read or write: it goes so that the others go on, counted
     * in {@link TcpServer#bufferFailures()}.
     */
    OUT_OF_MEMORY,
    /** Its server closed. */
    SERVER_CLOSED,
    /** Its reactor stopped. */
    REACTOR_STOPPED
}
