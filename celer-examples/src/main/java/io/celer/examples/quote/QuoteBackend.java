package io.celer.examples.quote;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;

import io.celer.http.server.HttpHandler;
import io.celer.http.server.HttpRequest;
import io.celer.http.server.HttpResponse;
import io.celer.http.server.HttpServer;
import io.celer.http.server.HttpServerConfig;
import io.celer.reactor.Reactor;
import io.celer.reactor.TimerCallback;
import io.celer.tcp.TcpConfig;

/**
 * A slow quote service: answers {@code GET /SYMBOL} with a line {@code SYMBOL PRICE port N} after a set delay,
 * kept by a reactor timer so the reactor serves every other request meanwhile. The price is made up, the same
 * symbol drifting a cent per quote. Garbage-free once its pool of pending quotes has grown to the load.
 */
public final class QuoteBackend implements HttpHandler, AutoCloseable
{

    private final Reactor reactor;
    private final long delayMillis;
    private final HttpServer server;
    private final ArrayDeque<Pending> idle = new ArrayDeque<>();
    private byte[] source = ascii("port ?");
    private long quotes;

    /**
     * A back-end, not yet listening.
     *
     * @param reactor     the reactor that runs it.
     * @param port        the port, 0 for a free one.
     * @param tcp         where to listen, TLS.
     * @param delayMillis how long each quote takes, 0 for at once.
     */
    public QuoteBackend(final Reactor reactor, final int port, final TcpConfig tcp, final long delayMillis)
    {
        if (delayMillis < 0)
        {
            throw new IllegalArgumentException("the delay must be 0 or more: " + delayMillis);
        }
        this.reactor = reactor;
        this.delayMillis = delayMillis;
        // Pipelined front connections keep many quotes pending at once: room for them all.
        this.server = new HttpServer(reactor, port, new HttpServerConfig().tcp(tcp).maxPipelinedRequests(64), this);
    }

    /**
     * Starts listening, from any thread.
     *
     * @return the address it listens on.
     */
    public InetSocketAddress open()
    {
        final InetSocketAddress address = server.open().localAddress();
        source = ascii("port " + address.getPort());
        return address;
    }

    @Override
    public void handle(final HttpRequest request, final HttpResponse response)
    {
        if (Symbols.refused(request, response))
        {
            return;
        }
        Pending pending = idle.poll();
        if (pending == null)
        {
            pending = new Pending();
        }
        pending.hold(request.path(), response);
        if (delayMillis == 0)
        {
            pending.answer();
        }
        else
        {
            reactor.schedule(delayMillis, pending);
        }
    }

    /** Stops listening and closes every connection, from any thread. */
    @Override
    public void close()
    {
        server.close();
    }

    private static byte[] ascii(final String text)
    {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /** A quote waiting for its delay: the symbol, copied out of the request, and whom to answer. */
    private final class Pending implements TimerCallback
    {
        private final byte[] line = new byte[Symbols.MAX_LENGTH + 64];
        private int symbolLength;
        private HttpResponse response;

        void hold(final CharSequence path, final HttpResponse response)
        {
            symbolLength = path.length() - 1;
            for (int i = 0; i < symbolLength; i++)
            {
                line[i] = (byte)path.charAt(i + 1);
            }
            this.response = response;
        }

        @Override
        public void onTimer(final long timerId, final long nowMillis)
        {
            answer();
        }

        void answer()
        {
            int at = symbolLength;
            line[at++] = ' ';
            int hash = 7;
            for (int i = 0; i < symbolLength; i++)
            {
                hash = hash * 31 + line[i];
            }
            final long cents = 1_000 + Math.floorMod(hash, 90_000) + quotes++ % 100;
            at = digits(cents / 100, at);
            line[at++] = '.';
            line[at++] = (byte)('0' + cents / 10 % 10);
            line[at++] = (byte)('0' + cents % 10);
            line[at++] = ' ';
            System.arraycopy(source, 0, line, at, source.length);
            at += source.length;
            line[at++] = '\n';
            final HttpResponse answering = response;
            response = null;
            idle.push(this);
            answering.header("Content-Type", "text/plain").body(line, 0, at);
        }

        private int digits(final long value, final int at)
        {
            int end = at;
            for (long rest = value; rest > 0 || end == at; rest /= 10)
            {
                end++;
            }
            int write = end;
            for (long rest = value; write > at; rest /= 10)
            {
                line[--write] = (byte)('0' + rest % 10);
            }
            return end;
        }
    }
}
