package io.celer.websocket.internal;

import io.celer.reactor.internal.ReactorPool;
import io.celer.websocket.WebSocketConfig;

/**
 * The frame decoders a thread lends its sessions: a session holds one only while a frame or a fragmented message
 * is partly read, so that an idle connection holds none. One pool per thread, as a session runs on its reactor's
 * thread only; it keeps as many as were out at once, trimmed now and then to what the latest peak needed and at
 * least {@value #FLOOR}. Reached through the thread's {@link CallbackScratch}, never looked up per message.
 */
final class FrameDecoders
{
    private static final ThreadLocal<FrameDecoders> DECODERS = ThreadLocal.withInitial(FrameDecoders::new);
    private static final int FLOOR = 64;

    // The limits are set as each is lent: sessions of one thread may have different configurations.
    private final ReactorPool<FrameDecoder> pool =
        new ReactorPool<>(Integer.MAX_VALUE, () -> new FrameDecoder(true, Long.MAX_VALUE, Long.MAX_VALUE));

    private FrameDecoders()
    {
    }

    /**
     * This thread's decoders.
     *
     * @return the thread's one pool.
     */
    static FrameDecoders forCurrentThread()
    {
        return DECODERS.get();
    }

    /**
     * A decoder at the start of a frame, set for a session.
     *
     * @param server      whether the session is a server's.
     * @param config      the session's limits.
     * @param rsv1Allowed whether permessage-deflate was negotiated.
     * @return the decoder, until given back.
     */
    FrameDecoder take(final boolean server, final WebSocketConfig config, final boolean rsv1Allowed)
    {
        final FrameDecoder decoder = pool.take();
        decoder.reset();
        return decoder.limits(server, config.maxFrameLength(), config.maxMessageLength()).rsv1Allowed(rsv1Allowed);
    }

    /**
     * Takes back a decoder its session no longer needs.
     *
     * @param decoder the decoder.
     */
    void give(final FrameDecoder decoder)
    {
        pool.giveAndTrim(decoder, FLOOR);
    }

    /** Decoders lent now; tests look at it. */
    int lent()
    {
        return pool.lent();
    }
}
