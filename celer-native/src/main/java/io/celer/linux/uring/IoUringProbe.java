package io.celer.linux.uring;

/**
 * Says whether this kernel gives this process an io_uring, for a launcher on an older JDK that cannot ask itself:
 * prints nothing and exits with 0 when it does, else prints the reason and exits with 1.
 */
public final class IoUringProbe
{
    private IoUringProbe()
    {
    }

    /**
     * Probes.
     *
     * @param args none.
     */
    public static void main(final String[] args)
    {
        final String refusal = IoUring.unavailable();
        if (refusal != null)
        {
            System.out.println(refusal);
            System.exit(1);
        }
    }
}
