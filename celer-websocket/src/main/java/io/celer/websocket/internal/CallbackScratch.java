package io.celer.websocket.internal;

import io.celer.websocket.Utf8Text;

/**
 * What a thread's sessions use only while one of their callbacks runs, one per thread and shared by every session
 * that thread runs: the view a received text or close reason is handed over in, valid only during that callback,
 * and the validator of close reasons, which checks a whole reason at once. One each per session would be idle
 * memory on every connection; with one per thread, the view's char array also grows once per thread, not once per
 * connection that reads text as chars. Looked up once per session when it opens, never per message.
 */
final class CallbackScratch
{
    private static final ThreadLocal<CallbackScratch> SCRATCH = ThreadLocal.withInitial(CallbackScratch::new);

    /** A received text message or close reason, wrapped for the callback that receives it. */
    final Utf8Text text = new Utf8Text();
    /** Checks what comes whole: a close frame's reason, a message in one chunk to a session without an assembler. */
    final Utf8Validator utf8 = new Utf8Validator();
    /** The thread's frame decoders, lent per message: reached through here so a session keeps one reference. */
    final FrameDecoders decoders = FrameDecoders.forCurrentThread();

    private CallbackScratch()
    {
    }

    /**
     * This thread's scratch.
     *
     * @return the thread's one instance.
     */
    static CallbackScratch forCurrentThread()
    {
        return SCRATCH.get();
    }
}
