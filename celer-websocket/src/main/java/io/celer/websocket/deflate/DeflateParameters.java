package io.celer.websocket.deflate;

/**
 * The permessage-deflate parameters both ends agreed on (RFC 7692 section 7.1).
 */
public final class DeflateParameters
{
    /** The window of every JDK deflater and the largest allowed. */
    public static final int MAX_WINDOW_BITS = 15;

    private final boolean serverNoContextTakeover;
    private final boolean clientNoContextTakeover;
    private final int serverMaxWindowBits;
    private final int clientMaxWindowBits;

    /**
     * Agreed parameters.
     *
     * @param serverNoContextTakeover the server resets its compressor after each message.
     * @param clientNoContextTakeover the client resets its compressor after each message.
     * @param serverMaxWindowBits     the server's LZ77 window, 8 to 15, or 0 when not negotiated (15).
     * @param clientMaxWindowBits     the client's LZ77 window, 8 to 15, or 0 when not negotiated (15).
     */
    public DeflateParameters(final boolean serverNoContextTakeover, final boolean clientNoContextTakeover,
        final int serverMaxWindowBits, final int clientMaxWindowBits)
    {
        this.serverNoContextTakeover = serverNoContextTakeover;
        this.clientNoContextTakeover = clientNoContextTakeover;
        this.serverMaxWindowBits = serverMaxWindowBits;
        this.clientMaxWindowBits = clientMaxWindowBits;
    }

    /**
     * Whether the server resets its compressor after each message.
     *
     * @return true when it does.
     */
    public boolean serverNoContextTakeover()
    {
        return serverNoContextTakeover;
    }

    /**
     * Whether the client resets its compressor after each message.
     *
     * @return true when it does.
     */
    public boolean clientNoContextTakeover()
    {
        return clientNoContextTakeover;
    }

    /**
     * The server's window, as negotiated.
     *
     * @return bits, or 0 when not negotiated (15).
     */
    public int serverMaxWindowBits()
    {
        return serverMaxWindowBits;
    }

    /**
     * The client's window, as negotiated.
     *
     * @return bits, or 0 when not negotiated (15).
     */
    public int clientMaxWindowBits()
    {
        return clientMaxWindowBits;
    }

    /**
     * Whether one end's compressor resets after each message.
     *
     * @param server the server's end, else the client's.
     * @return true when it resets.
     */
    public boolean noContextTakeover(final boolean server)
    {
        return server ? serverNoContextTakeover : clientNoContextTakeover;
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof DeflateParameters &&
            ((DeflateParameters)other).serverNoContextTakeover == serverNoContextTakeover &&
            ((DeflateParameters)other).clientNoContextTakeover == clientNoContextTakeover &&
            ((DeflateParameters)other).serverMaxWindowBits == serverMaxWindowBits &&
            ((DeflateParameters)other).clientMaxWindowBits == clientMaxWindowBits;
    }

    @Override
    public int hashCode()
    {
        return (serverNoContextTakeover ? 1 : 0) + (clientNoContextTakeover ? 2 : 0) + 4 * serverMaxWindowBits +
            64 * clientMaxWindowBits;
    }

    @Override
    public String toString()
    {
        return "permessage-deflate(serverNoContextTakeover=" + serverNoContextTakeover + ", clientNoContextTakeover=" +
            clientNoContextTakeover + ", serverMaxWindowBits=" + serverMaxWindowBits + ", clientMaxWindowBits=" +
            clientMaxWindowBits + ")";
    }
}
