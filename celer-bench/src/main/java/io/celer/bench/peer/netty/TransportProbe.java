package io.celer.bench.peer.netty;

/**
 * Tells the harness whether a Netty transport runs here, on the Netty line of this JVM's class path: exits 0 when
 * it does, else prints Netty's cause and exits 1.
 */
public final class TransportProbe
{
    private TransportProbe()
    {
    }

    /**
     * Probes a transport.
     *
     * @param args the transport's name, such as {@code uring}.
     */
    public static void main(final String[] args)
    {
        final Throwable cause = NettyTransport.of(args[0]).unavailabilityCause();
        if (cause != null)
        {
            System.out.println(NettyTransport.line() + ": " + cause);
            System.exit(1);
        }
    }
}
