package io.celer.websocket.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * Computes Sec-WebSocket-Accept from a Sec-WebSocket-Key: Base64 of the SHA-1 of the key followed by RFC 6455's
 * GUID. One instance per reactor thread reuses its digest and arrays, so a computation allocates nothing.
 */
public final class AcceptKey
{
    /** The GUID that RFC 6455 appends to the key. */
    public static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    /** The length of a Sec-WebSocket-Accept value. */
    public static final int LENGTH = 28;

    private static final byte[] GUID_BYTES = GUID.getBytes(StandardCharsets.US_ASCII);

    private final MessageDigest sha1;
    private final Base64.Encoder base64 = Base64.getEncoder();
    private final byte[] input = new byte[SecWebSocketKey.LENGTH + GUID_BYTES.length];
    private final byte[] digest = new byte[20];
    private final byte[] accept = new byte[LENGTH];

    /**
     * A computer with its own SHA-1 digest.
     */
    public AcceptKey()
    {
        try
        {
            sha1 = MessageDigest.getInstance("SHA-1");
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException("every Java platform has SHA-1", ex);
        }
        System.arraycopy(GUID_BYTES, 0, input, SecWebSocketKey.LENGTH, GUID_BYTES.length);
    }

    /**
     * Writes the accept value for a key held as bytes (as in a request read into a buffer).
     *
     * @param key  the buffer holding the key.
     * @param from the key's first index.
     * @param to   the index after its last; the key must be {@link SecWebSocketKey#isValid valid}.
     * @param out  receives {@link #LENGTH} ASCII bytes at its position, which moves past them.
     * @throws IllegalArgumentException if the key is not 24 bytes long.
     */
    public void write(final ByteBuffer key, final int from, final int to, final ByteBuffer out)
    {
        if (to - from != SecWebSocketKey.LENGTH)
        {
            throw new IllegalArgumentException("a Sec-WebSocket-Key is 24 characters");
        }
        key.get(from, input, 0, SecWebSocketKey.LENGTH);
        compute();
        out.put(accept);
    }

    /**
     * Writes the accept value for a key held as chars.
     *
     * @param key the key, 24 ASCII characters.
     * @param out receives {@link #LENGTH} ASCII bytes at its position, which moves past them.
     * @throws IllegalArgumentException if the key is not 24 characters long.
     */
    public void write(final CharSequence key, final ByteBuffer out)
    {
        if (key.length() != SecWebSocketKey.LENGTH)
        {
            throw new IllegalArgumentException("a Sec-WebSocket-Key is 24 characters");
        }
        for (int i = 0; i < SecWebSocketKey.LENGTH; i++)
        {
            input[i] = (byte)key.charAt(i);
        }
        compute();
        out.put(accept);
    }

    /**
     * Whether a received Sec-WebSocket-Accept is the one the key calls for (a client's check of the response).
     *
     * @param key      the key the client sent.
     * @param received the value the server answered.
     * @return true when they match.
     */
    public boolean matches(final CharSequence key, final CharSequence received)
    {
        if (key.length() != SecWebSocketKey.LENGTH || received.length() != LENGTH)
        {
            return false;
        }
        for (int i = 0; i < SecWebSocketKey.LENGTH; i++)
        {
            input[i] = (byte)key.charAt(i);
        }
        compute();
        for (int i = 0; i < LENGTH; i++)
        {
            if (accept[i] != received.charAt(i))
            {
                return false;
            }
        }
        return true;
    }

    private void compute()
    {
        sha1.update(input, 0, input.length);
        try
        {
            sha1.digest(digest, 0, digest.length);
        }
        catch (final DigestException ex)
        {
            throw new IllegalStateException("SHA-1 digests are 20 bytes", ex);
        }
        base64.encode(digest, accept);
    }
}
