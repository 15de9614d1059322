package io.celer.bench.peer.celer;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

import io.celer.bench.peer.ChildProcess;
import io.celer.bench.peer.EchoSession;
import io.celer.reactor.Reactor;
import io.celer.udp.DatagramHandler;
import io.celer.udp.UdpConfig;
import io.celer.udp.UdpEndpoint;

/**
 * Celer's UDP echo server: a {@link UdpEndpoint} on a busy-spinning reactor sends each datagram straight back
 * to its sender.
 */
public final class CelerUdpEchoServer implements DatagramHandler
{
    private final EchoSession session;

    private CelerUdpEchoServer(final int dropEvery)
    {
        this.session = new EchoSession(dropEvery);
    }

    /**
     * Runs the server until a second after the client's end marker.
     *
     * @param args {@code --size=B --cpu=N --max-seconds=S}, and {@code --drop-every=N} to test the client's
     *             resending.
     */
    public static void main(final String[] args)
    {
        final ChildProcess child = ChildProcess.start(args);
        final int size = child.intArg("size", 256);
        final CelerUdpEchoServer echo = new CelerUdpEchoServer(child.intArg("drop-every", 0));
        final Reactor reactor = new Reactor(ChildReactor.config(child, "celer-server"));
        final UdpEndpoint endpoint = new UdpEndpoint(reactor, 0,
            new UdpConfig().bindAddress("127.0.0.1").maxDatagramSize(size).writeBufferSize(size)
                .busyPoll(ChildProcess.busyPoll(child)), echo).open();
        reactor.start();
        ChildProcess.listening(endpoint.port());
        echo.session.awaitEndAndLinger(child);
        reactor.stop();
    }

    @Override
    public void datagram(final UdpEndpoint endpoint, final ByteBuffer payload, final InetSocketAddress sender)
    {
        if (session.onMessage(payload.getLong(payload.position())))
        {
            // A full socket buffer drops the echo like the network would; the client sends again.
            endpoint.send(payload, sender);
        }
    }

    @Override
    public void error(final UdpEndpoint endpoint, final Throwable error)
    {
        ChildProcess.fail("celer UDP server failed", error);
    }
}
