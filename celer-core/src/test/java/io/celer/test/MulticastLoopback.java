package io.celer.test;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

/**
 * The loopback interface with multicast on, so that no multicast datagram of a test leaves the machine.
 */
public final class MulticastLoopback
{
    private MulticastLoopback()
    {
    }

    /**
     * The loopback interface, multicast switched on here when it is off and we may (root); the test is skipped,
     * saying why, when we may not.
     *
     * @return the interface.
     */
    public static NetworkInterface get() throws Exception
    {
        NetworkInterface lo = NetworkInterface.getByInetAddress(InetAddress.getLoopbackAddress());
        if (lo != null && !lo.supportsMulticast())
        {
            final Process p = new ProcessBuilder("ip", "link", "set", lo.getName(), "multicast", "on")
                .redirectErrorStream(true).start();
            p.waitFor(10, TimeUnit.SECONDS);
            lo = NetworkInterface.getByInetAddress(InetAddress.getLoopbackAddress());
        }
        Assumptions.assumeTrue(lo != null && lo.supportsMulticast(),
            "multicast is off on the loopback interface and could not be switched on (needs root and iproute2)");
        return lo;
    }
}
