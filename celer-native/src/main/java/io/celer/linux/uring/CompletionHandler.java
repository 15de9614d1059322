package io.celer.linux.uring;

/**
 * Told of each completion an {@link IoUring} posts.
 */
@FunctionalInterface
public interface CompletionHandler
{
    /**
     * An operation completed, or a multishot one produced a result.
     *
     * @param userData what the operation was prepared with.
     * @param result   its result: bytes, a descriptor, 0, or -errno.
     * @param flags    {@link IoUring#CQE_F_MORE}, {@link IoUring#CQE_F_BUFFER} and the buffer id.
     */
    void complete(long userData, int result, int flags);
}
