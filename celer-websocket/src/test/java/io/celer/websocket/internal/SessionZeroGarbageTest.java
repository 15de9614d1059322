package io.celer.websocket.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.zip.Deflater;

import org.junit.jupiter.api.Test;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.celer.reactor.Reactor;
import io.celer.tcp.TcpClient;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;
import io.celer.test.Reactors;
import io.celer.test.SteadyAllocation;
import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketHandler;
import io.celer.websocket.deflate.DeflateParameters;
import io.celer.websocket.EchoHandler;
import io.celer.websocket.NoAllocation;
import io.celer.websocket.Pinger;
import io.celer.websocket.StubUpgrade;
import io.celer.websocket.WebSocketConfig;

/**
 * After warm-up, a client and a server session exchanging messages over loopback (text and binary, whole and
 * fragmented with a ping between fragments, answered by an automatic pong) allocate nothing on either reactor
 * thread, with and without permessage-deflate; and a compressed message inflated over many cycles, its reads
 * paused and resumed between slices, allocates nothing on the server's.
 */
class SessionZeroGarbageTest
{
    private static final long WARM_UP = 30_000;
    private static final long MEASURED = 100_000;
    private static final long MIN_MEASURED = 20_000;

    @RegisterExtension
    final Reactors reactors = new Reactors();

    @ParameterizedTest(name = "permessage-deflate: {0}")
    @ValueSource(booleans = {false, true})
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void exchangesAllocateNothingOnTheReactorThreads(final boolean compressed) throws Exception
    {
        final DeflateParameters agreed = new DeflateParameters(false, false, 0, 0);
        final Reactor serverReactor = reactors.start("server");
        final Reactor clientReactor = reactors.start("client");
        final int port = new TcpServer(serverReactor, 0, new TcpConfig().bindAddress("127.0.0.1"),
            new StubUpgrade(true, () -> compressed ? WebSocketSession.server(new WebSocketConfig(), new EchoHandler())
                .compression(agreed) : WebSocketSession.server(new WebSocketConfig(), new EchoHandler()))).open().port();
        final Pinger pinger = new Pinger(true);
        new TcpClient(clientReactor, "127.0.0.1", port, new TcpConfig(), new StubUpgrade(false, () -> compressed ?
            WebSocketSession.client(new WebSocketConfig(), pinger).compression(agreed) :
            WebSocketSession.client(new WebSocketConfig(), pinger))).open();

        final NoAllocation.Least least =
            NoAllocation.leastAllocated(pinger, WARM_UP, MEASURED, serverReactor.thread(), clientReactor.thread());

        assertThat(pinger.mismatches()).isZero();
        assertThat(least.roundTrips()).as("round trips measured").isGreaterThanOrEqualTo(MIN_MEASURED);
        assertThat(least.server()).as("server reactor bytes over %d round trips", least.roundTrips()).isZero();
        assertThat(least.client()).as("client reactor bytes over %d round trips", least.roundTrips()).isZero();
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void aCompressedMessageInflatedInSlicesAllocatesNothing() throws Exception
    {
        final int inflated = 256 * 1024; // sixteen slices of the default bound
        final ByteBuffer reply = ByteBuffer.allocateDirect(1);
        final Reactor serverReactor = reactors.start("server");
        final int port = new TcpServer(serverReactor, 0, new TcpConfig().bindAddress("127.0.0.1"),
            new StubUpgrade(true, () -> WebSocketSession.server(
                new WebSocketConfig().initialMessageBufferSize(inflated), new WebSocketHandler()
                {
                    @Override
                    public void binary(final WebSocket socket, final ByteBuffer message)
                    {
                        reply.clear().put(0, (byte)(message.remaining() == inflated ? 1 : 0));
                        socket.sendBinary(reply);
                    }
                }).compression(new DeflateParameters(false, false, 0, 0)))).open().port();

        final Deflater deflater = new Deflater(9, true);
        deflater.setInput(new byte[inflated]);
        final byte[] compressed = new byte[4096];
        final int length = deflater.deflate(compressed, 0, compressed.length, Deflater.SYNC_FLUSH) - 4;
        deflater.end();
        final ByteBuffer frame = ByteBuffer.allocate(8 + length);
        frame.put((byte)0xC2).put((byte)(0x80 | 126)).putShort((short)length).putInt(0).put(compressed, 0, length);
        try (Socket socket = new Socket("127.0.0.1", port))
        {
            socket.setSoTimeout(30_000);
            socket.setTcpNoDelay(true);
            final OutputStream out = socket.getOutputStream();
            final DataInputStream in = new DataInputStream(socket.getInputStream());
            out.write(StubUpgrade.REQUEST.getBytes(StandardCharsets.US_ASCII));
            StubUpgrade.skipHead(in);
            final byte[] answer = new byte[3]; // the one-byte reply, compressed: stored as it is, or deflated
            assertThat(SteadyAllocation.perWindow(serverReactor.thread(), () ->
            {
                for (int i = 0; i < 200; i++)
                {
                    out.write(frame.array());
                    assertThat(in.readUnsignedByte() & 0x0F).as("a binary reply").isEqualTo(2);
                    in.readFully(answer, 0, in.readUnsignedByte());
                }
            })).as("server reactor bytes per window of 200 messages").last().isEqualTo(0L);
        }
    }
}
