package io.celer.websocket.internal;

import java.security.SecureRandom;

/**
 * Masking keys for a client's frames: a SplitMix64 sequence seeded once from {@link SecureRandom}.
 *
 * <p>RFC 6455 asks for keys a proxy cannot predict from earlier frames; a SecureRandom call per frame would
 * allocate and lock on the hot path, so a seeded 64-bit mixer (not a cryptographic generator, which masking
 * does not need: it only keeps attacker-chosen bytes off the wire verbatim) is used instead.
 */
public final class MaskKeys
{
    private long state;

    /**
     * A generator seeded from the system's secure random source.
     */
    public MaskKeys()
    {
        this(new SecureRandom().nextLong());
    }

    /**
     * A generator with a fixed seed, for reproducible tests.
     *
     * @param seed the seed.
     */
    public MaskKeys(final long seed)
    {
        this.state = seed;
    }

    /**
     * The next masking key.
     *
     * @return 32 random bits.
     */
    public int nextKey()
    {
        return (int)(nextLong() >>> 32);
    }

    /**
     * The next 64 random bits.
     *
     * @return the bits.
     */
    public long nextLong()
    {
        long z = (state += 0x9E37_79B9_7F4A_7C15L);
        z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
        return z ^ (z >>> 31);
    }
}
