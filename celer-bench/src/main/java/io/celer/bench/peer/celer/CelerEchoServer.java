package io.celer.bench.peer.celer;

import java.nio.ByteBuffer;

import io.celer.bench.peer.ChildProcess;
import io.celer.bench.peer.EchoSession;
import io.celer.bench.peer.PeerTls;
import io.celer.framing.FixedSizeFraming;
import io.celer.reactor.Reactor;
import io.celer.tcp.Connection;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;
import io.celer.tls.TlsConfig;

/**
 * Celer's echo server: a busy-spinning reactor, fixed-size framing, each message sent straight back.
 */
public final class CelerEchoServer extends ChildHandler
{
    private final EchoSession session = new EchoSession();

    private CelerEchoServer()
    {
        super("celer server");
    }

    /**
     * Runs the server until its client disconnects.
     *
     * @param args {@code --size=B --cpu=N --max-seconds=S}, and {@code --keystore=FILE --store-password=P} for TLS.
     */
    public static void main(final String[] args)
    {
        final ChildProcess child = ChildProcess.start(args);
        final int size = child.intArg("size", 256);
        final CelerEchoServer echo = new CelerEchoServer();
        final Reactor reactor = new Reactor(ChildReactor.config(child, "celer-server")).start();
        final TcpConfig config = new TcpConfig().bindAddress("127.0.0.1").framing(() -> new FixedSizeFraming(size))
            .busyPoll(ChildProcess.busyPoll(child));
        final PeerTls tls = PeerTls.of(child);
        if (tls != null)
        {
            config.transport(new TlsConfig().keyStore(tls.keyStore(), tls.password()).protocols(PeerTls.PROTOCOL));
        }
        final TcpServer server = new TcpServer(reactor, 0, config, echo).open();
        ChildProcess.listening(server.port());
        child.await(echo.done);
        reactor.stop();
        ChildProcess.report(echo.session.stats() == null ? "stats missing" : echo.session.stats());
    }

    @Override
    public void message(final Connection connection, final ByteBuffer message)
    {
        session.onMessage(message.getLong(message.position()));
        connection.send(message);
    }
}
