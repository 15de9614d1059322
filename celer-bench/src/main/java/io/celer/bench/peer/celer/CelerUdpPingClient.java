package io.celer.bench.peer.celer;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.CountDownLatch;

import io.celer.bench.peer.ChildProcess;
import io.celer.bench.peer.Markers;
import io.celer.bench.peer.PingSession;
import io.celer.reactor.Reactor;
import io.celer.reactor.TimerCallback;
import io.celer.udp.DatagramHandler;
import io.celer.udp.UdpConfig;
import io.celer.udp.UdpEndpoint;

/**
 * Celer's UDP ping client: a {@link UdpEndpoint} connected to the server, on a busy-spinning reactor, sends
 * the next datagram from inside the echo's callback; a timer sends again when an echo is overdue.
 */
public final class CelerUdpPingClient implements DatagramHandler, TimerCallback
{
    private final PingSession session;
    private final ByteBuffer out;
    private final CountDownLatch done = new CountDownLatch(1);
    private final Reactor reactor;
    private UdpEndpoint endpoint;

    private CelerUdpPingClient(final PingSession session, final int size, final Reactor reactor)
    {
        this.session = session;
        this.reactor = reactor;
        this.out = ChildProcess.payload(size);
    }

    /**
     * Runs the client until the last echo.
     *
     * @param args {@code --port=P --warmup=N --messages=N --size=B --cpu=N --histogram=FILE --progress=FILE}.
     */
    public static void main(final String[] args)
    {
        final ChildProcess child = ChildProcess.start(args);
        final int size = child.intArg("size", 256);
        final PingSession session = PingSession.of(child);
        final Reactor reactor = new Reactor(ChildReactor.config(child, "celer-client"));
        final CelerUdpPingClient ping = new CelerUdpPingClient(session, size, reactor);
        ping.endpoint = new UdpEndpoint(reactor, 0,
            new UdpConfig().bindAddress("127.0.0.1").maxDatagramSize(size).writeBufferSize(size)
                .busyPoll(ChildProcess.busyPoll(child)), ping).open();
        ping.endpoint.connect(new InetSocketAddress("127.0.0.1", child.intArg("port", 0)));
        reactor.start();
        reactor.execute(() ->
        {
            ping.send(session.first());
            reactor.schedule(PingSession.RESEND_CHECK_MILLIS, ping);
        });
        child.await(ping.done);
        reactor.stop();
        session.report(child);
    }

    @Override
    public void datagram(final UdpEndpoint endpoint, final ByteBuffer payload, final InetSocketAddress sender)
    {
        final long next = session.onDatagramEcho(payload.getLong(payload.position()));
        if (next == Markers.DONE)
        {
            done.countDown();
        }
        else if (next != Markers.NOTHING)
        {
            send(next);
        }
    }

    @Override
    public void onTimer(final long timerId, final long nowMillis)
    {
        if (session.finished())
        {
            return;
        }
        final long next = session.resendDue(System.nanoTime());
        if (next != Markers.NOTHING)
        {
            send(next);
        }
        reactor.schedule(PingSession.RESEND_CHECK_MILLIS, this);
    }

    private void send(final long value)
    {
        out.clear();
        out.putLong(0, value);
        // A full socket buffer drops the datagram like the network would; the timer sends again.
        endpoint.send(out);
    }

    @Override
    public void error(final UdpEndpoint endpoint, final Throwable error)
    {
        ChildProcess.fail("celer UDP client failed", error);
    }
}
