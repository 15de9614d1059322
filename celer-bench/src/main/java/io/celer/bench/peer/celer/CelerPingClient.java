package io.celer.bench.peer.celer;

import java.nio.ByteBuffer;

import io.celer.bench.peer.ChildProcess;
import io.celer.bench.peer.Markers;
import io.celer.bench.peer.PeerTls;
import io.celer.bench.peer.PingSession;
import io.celer.framing.FixedSizeFraming;
import io.celer.reactor.Reactor;
import io.celer.tcp.Connection;
import io.celer.tcp.TcpClient;
import io.celer.tcp.TcpConfig;
import io.celer.tls.TlsConfig;

/**
 * Celer's ping client: sends the next message from inside the echo's callback, on a busy-spinning reactor.
 */
public final class CelerPingClient extends ChildHandler
{
    private final PingSession session;
    private final ByteBuffer out;

    private CelerPingClient(final PingSession session, final int size)
    {
        super("celer client");
        this.session = session;
        this.out = ChildProcess.payload(size);
    }

    /**
     * Runs the client until the last echo.
     *
     * @param args {@code --port=P --warmup=N --messages=N --size=B --cpu=N --histogram=FILE --progress=FILE}, and
     *             {@code --truststore=FILE --store-password=P} for TLS.
     */
    public static void main(final String[] args)
    {
        final ChildProcess child = ChildProcess.start(args);
        final int size = child.intArg("size", 256);
        final PingSession session = PingSession.of(child);
        final CelerPingClient ping = new CelerPingClient(session, size);
        final Reactor reactor = new Reactor(ChildReactor.config(child, "celer-client")).start();
        final TcpConfig config = new TcpConfig().framing(() -> new FixedSizeFraming(size))
            .busyPoll(ChildProcess.busyPoll(child));
        final PeerTls tls = PeerTls.of(child);
        if (tls != null)
        {
            // The certificate names 127.0.0.1, so the default host name check passes.
            config.transport(
                new TlsConfig().trustStore(tls.trustStore(), tls.password()).protocols(PeerTls.PROTOCOL));
        }
        new TcpClient(reactor, "127.0.0.1", child.intArg("port", 0), config, ping).open();
        child.await(ping.done);
        reactor.stop();
        if (!session.finished())
        {
            ChildProcess.fail("celer client", new IllegalStateException("connection closed before the last echo"));
        }
        session.report(child);
    }

    @Override
    public void opened(final Connection connection)
    {
        send(connection, session.first());
    }

    @Override
    public void message(final Connection connection, final ByteBuffer message)
    {
        final long next = session.onEcho(message.getLong(message.position()));
        if (next == Markers.DONE)
        {
            connection.close();
            return;
        }
        send(connection, next);
    }

    private void send(final Connection connection, final long value)
    {
        out.clear();
        out.putLong(0, value);
        connection.send(out);
    }
}
