package io.celer.tls;

import static io.celer.test.Sockets.lineReader;
import static io.celer.test.Sockets.sendLine;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;

import javax.net.ssl.SSLException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.celer.framing.LineFraming;
import io.celer.tcp.CloseReason;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;
import io.celer.tcp.Transport;
import io.celer.test.Reactors;
import io.celer.test.RecordingHandler;
import io.celer.test.TestCertificates;
import io.celer.test.Transports;

/**
 * TLS paths that ordinary peers seldom take: records that arrive with the handshake, in pieces, too large,
 * key updates and closes at awkward moments.
 */
class TlsEdgeCasesTest
{
    private static final TestCertificates CERTS = TestCertificates.get();

    @RegisterExtension
    final Reactors reactors = new Reactors();

    /**
     * A TLS transport whose first handshake step waits for the peer's whole answer, as a fast peer or a slow
     * reactor would make it: the handshake then completes at once, with the peer's first application record
     * already read.
     */
    private static final class PatientFirstStep implements Transport
    {
        private final Transport tls;
        private boolean first = true;
        volatile boolean doneWithBufferedInput;

        PatientFirstStep(final Transport tls)
        {
            this.tls = tls;
        }

        @Override
        public boolean handshake(final ByteChannel channel) throws IOException
        {
            boolean done = tls.handshake(channel);
            for (int i = 0; first && !done && i < 50; i++)
            {
                pause();
                done = tls.handshake(channel);
            }
            if (first && done)
            {
                doneWithBufferedInput = tls.hasBufferedInput();
            }
            first = false;
            return done;
        }

        private static void pause()
        {
            try
            {
                Thread.sleep(100);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public int read(final ByteChannel channel, final ByteBuffer destination, final boolean fromSocket)
            throws IOException
        {
            return tls.read(channel, destination, fromSocket);
        }

        @Override
        public boolean hasBufferedInput()
        {
            return tls.hasBufferedInput();
        }

        @Override
        public void write(final ByteChannel channel, final ByteBuffer source) throws IOException
        {
            tls.write(channel, source);
        }

        @Override
        public boolean hasPendingOutput()
        {
            return tls.hasPendingOutput();
        }

        @Override
        public void shutdown(final ByteChannel channel)
        {
            tls.shutdown(channel);
        }
    }

    @Test
    void applicationBytesReadWithTheHandshakesLastFlightAreDeliveredAtOnce() throws Exception
    {
        final TlsConfig tls = TlsTest.serverTls(CERTS.server());
        final PatientFirstStep[] transport = new PatientFirstStep[1];
        final TcpServer server = new TcpServer(reactors.start("server"), 0, new TcpConfig().bindAddress("127.0.0.1")
            .framing(() -> new LineFraming(64))
            .transport((clientMode, host, port) -> transport[0] = new PatientFirstStep(
                tls.newTransport(clientMode, host, port))), new RecordingHandler(true)).open();

        // Up to a few tries, in case the client's Finished and its first record reached the server apart.
        for (int attempt = 0; attempt < 5 && (transport[0] == null || !transport[0].doneWithBufferedInput); attempt++)
        {
            try (Socket socket = Transports.clientContext().getSocketFactory().createSocket("localhost", server.port()))
            {
                socket.setSoTimeout(10_000);
                // No explicit handshake: the client's Finished and this line leave back to back.
                sendLine(socket, "hello");
                final BufferedReader in = lineReader(socket);
                assertThat(in.readLine()).as("the echo of the line sent with the client's Finished")
                    .isEqualTo("hello");
            }
        }
        assertThat(transport[0].doneWithBufferedInput).as("the handshake completed with the line read").isTrue();
    }

    private TcpServer echoServer(final RecordingHandler handler)
    {
        return new TcpServer(reactors.start("server"), 0, new TcpConfig().bindAddress("127.0.0.1")
            .framing(() -> new LineFraming(1024)).transport(TlsTest.serverTls(CERTS.server())), handler).open();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"TLSv1.3", "TLSv1.2"})
    void recordsCutAtEveryPointAreReassembled(final String protocol) throws Exception
    {
        final RecordingHandler server = new RecordingHandler(true);
        final TcpServer tcpServer = echoServer(server);
        try (RawTlsPeer peer = new RawTlsPeer(tcpServer.port(), protocol))
        {
            final StringBuilder expected = new StringBuilder();
            for (int cut = 1; cut < 40; cut++)
            {
                final String line = "cut at " + cut + " of a record\n";
                final byte[] record = peer.records(line);
                final int at = Math.min(cut, record.length - 1);
                peer.send(record, 0, at);
                Thread.sleep(1); // let the server read the first piece alone, most of the time
                peer.send(record, at, record.length - at);
                expected.append(line);
            }
            assertThat(peer.receive(expected.length())).isEqualTo(expected.toString());
        }
        assertThat(server.errors).isEmpty();
    }

    @Test
    void aRecordLargerThanTlsAllowsIsATlsError() throws Exception
    {
        final RecordingHandler server = new RecordingHandler(true);
        final TcpServer tcpServer = echoServer(server);
        try (RawTlsPeer peer = new RawTlsPeer(tcpServer.port(), "TLSv1.3"))
        {
            final byte[] huge = new byte[5 + 20_000];
            huge[0] = 23; // application data
            huge[1] = 3;
            huge[2] = 3;
            huge[3] = (byte)(20_000 >> 8);
            huge[4] = (byte)20_000;
            peer.send(huge, 0, 5 + 1_000); // the header says enough: the rest never needs to come
            assertThat(server.awaitClosed()).isEqualTo(CloseReason.TLS_ERROR);
            assertThat(server.errors).singleElement().isInstanceOf(SSLException.class);
            assertThatThrownBy(peer::receiveClose).as("the server's alert").isInstanceOf(SSLException.class);
        }
    }

    @Test
    void aCorruptRecordIsATlsErrorWithAnAlert() throws Exception
    {
        final RecordingHandler server = new RecordingHandler(true);
        final TcpServer tcpServer = echoServer(server);
        try (RawTlsPeer peer = new RawTlsPeer(tcpServer.port(), "TLSv1.3"))
        {
            peer.send(peer.records("fine\n"));
            assertThat(server.nextMessage()).isEqualTo("fine");
            final byte[] record = peer.records("tampered\n");
            record[record.length - 1] ^= 1;
            peer.send(record);
            assertThat(server.awaitClosed()).isEqualTo(CloseReason.TLS_ERROR);
            assertThat(server.errors).singleElement().isInstanceOf(SSLException.class);
            assertThat(peer.receive(5)).isEqualTo("fine\n");
            assertThatThrownBy(peer::receiveClose).as("the server's alert").isInstanceOf(SSLException.class)
                .hasMessageContaining("bad_record_mac");
        }
        assertThat(server.messages).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"TLSv1.3", "TLSv1.2"})
    void aCloseNotifyOnAnOpenTcpConnectionIsAnOrderlyClose(final String protocol) throws Exception
    {
        final RecordingHandler server = new RecordingHandler(true);
        final TcpServer tcpServer = echoServer(server);
        try (RawTlsPeer peer = new RawTlsPeer(tcpServer.port(), protocol))
        {
            peer.send(peer.closeNotify()); // and the TCP connection stays open
            assertThat(server.awaitClosed()).isEqualTo(CloseReason.PEER_CLOSED);
            assertThat(peer.receiveClose()).as("the server's close_notify").isTrue();
            assertThat(peer.endOfStream()).isTrue();
        }
        assertThat(server.errors).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"TLSv1.3", "TLSv1.2"})
    void aLastRequestThatComesWithTheCloseNotifyIsDeliveredThenTheConnectionClosesInOrder(final String protocol)
        throws Exception
    {
        final RecordingHandler server = new RecordingHandler(true);
        final TcpServer tcpServer = echoServer(server);
        try (RawTlsPeer peer = new RawTlsPeer(tcpServer.port(), protocol))
        {
            final byte[] last = peer.records("last\n");
            final byte[] close = peer.closeNotify();
            final byte[] both = java.util.Arrays.copyOf(last, last.length + close.length);
            System.arraycopy(close, 0, both, last.length, close.length);
            peer.send(both);
            assertThat(server.nextMessage()).isEqualTo("last");
            assertThat(server.awaitClosed()).isEqualTo(CloseReason.PEER_CLOSED);
            if (protocol.equals("TLSv1.3"))
            {
                // TLS 1.3 closes each direction alone: the answer still goes out.
                assertThat(peer.receive(5)).isEqualTo("last\n");
            }
            assertThat(peer.receiveClose()).as("the server's close_notify").isTrue();
        }
        assertThat(server.errors).as("TLS 1.2 drops writes after the peer's close_notify, quietly").isEmpty();
    }
}
