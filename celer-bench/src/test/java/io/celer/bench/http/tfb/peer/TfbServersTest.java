package io.celer.bench.http.tfb.peer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.celer.bench.http.peer.NettyHttpServer;
import io.celer.bench.http.peer.VertxHttpServer;
import io.celer.bench.peer.server.PeerMain;
import io.celer.bench.peer.server.PeerServer;
import io.celer.test.SteadyAllocation;

/**
 * Each TechEmpower peer, run in-process on a real socket, answers pipelined {@code /plaintext} and {@code /json}
 * requests as {@link ResponseCheck} demands; Celer's JSON route allocates nothing on its reactor once warm.
 */
@Timeout(120)
class TfbServersTest
{
    enum Server
    {
        CELER, CELER_SPIN, VERTX, NETTY;

        PeerServer make()
        {
            return switch (this)
            {
                case CELER -> PeerMain.configure(new CelerTfbServer());
                case CELER_SPIN -> PeerMain.configure(new CelerTfbServer(), "--spin");
                case VERTX -> PeerMain.configure(new VertxHttpServer());
                case NETTY -> PeerMain.configure(new NettyHttpServer(), "--transport=nio");
            };
        }
    }

    @ParameterizedTest
    @EnumSource(Server.class)
    void answersBothRoutesPipelined(final Server kind) throws Exception
    {
        final PeerServer server = kind.make();
        final PeerServer.Serving serving = server.start();
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), serving.port()))
        {
            socket.setSoTimeout(10_000);
            for (final TfbRoute route : TfbRoute.values())
            {
                exchange(socket, route, 16);
            }
        }
        finally
        {
            server.stop();
        }
    }

    @Test
    void celerJsonRouteAllocatesNothingOnItsReactor() throws Exception
    {
        final PeerServer server = Server.CELER.make();
        final PeerServer.Serving serving = server.start();
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), serving.port()))
        {
            socket.setSoTimeout(10_000);
            final Thread reactor = ((CelerTfbServer)server).group().reactor(0).thread();
            // Until the JIT is quiet, compiled code arriving allocates once: SteadyAllocation waits that out.
            final List<Long> windows = SteadyAllocation.perWindow(reactor, () ->
            {
                for (int i = 0; i < 1_000; i++)
                {
                    exchange(socket, TfbRoute.JSON, 16);
                }
            });
            assertThat(windows).as("bytes the reactor allocated per window of 16,000 pipelined GET /json").contains(0L);
        }
        finally
        {
            server.stop();
        }
    }

    /** Sends a batch of pipelined requests in one write and checks every response. */
    static void exchange(final Socket socket, final TfbRoute route, final int depth) throws IOException
    {
        final byte[] request = route.request();
        final byte[] batch = new byte[request.length * depth];
        for (int i = 0; i < depth; i++)
        {
            System.arraycopy(request, 0, batch, i * request.length, request.length);
        }
        final OutputStream out = socket.getOutputStream();
        out.write(batch);
        out.flush();
        final InputStream in = socket.getInputStream();
        final ResponseCheck check = route.check();
        final ByteBuffer read = ByteBuffer.allocate(64 * 1024);
        read.flip();
        int answered = 0;
        while (answered < depth)
        {
            final int length = check.check(read);
            assertThat(length).as("%s", check.problem()).isNotEqualTo(ResponseCheck.WRONG);
            if (length > 0)
            {
                read.position(read.position() + length);
                answered++;
                continue;
            }
            read.compact();
            final int n = in.read(read.array(), read.position(), read.remaining());
            assertThat(n).as("the server closed after %d of %d responses", answered, depth).isPositive();
            read.position(read.position() + n);
            read.flip();
        }
        assertThat(read.hasRemaining()).as("bytes beyond the responses").isFalse();
    }
}
