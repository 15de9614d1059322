package io.celer.bench.tlsflood;

import java.io.BufferedReader;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

/**
 * The flooding side of {@code bench tls-flood}, run as a child process: threads that each connect, shake hands
 * (a full handshake every time: no session is resumed), send five bytes, read them back and close, over and
 * over, until {@code stop} comes on stdin; then it prints {@code done HANDSHAKES FAILURES} and exits.
 */
public final class TlsFlooder
{
    private TlsFlooder()
    {
    }

    /**
     * Floods a TLS echo server.
     *
     * @param args host, port, threads, trust store (PKCS12), its password.
     * @throws Exception when the trust store cannot be read.
     */
    public static void main(final String[] args) throws Exception
    {
        final String host = args[0];
        final int port = Integer.parseInt(args[1]);
        final int threads = Integer.parseInt(args[2]);
        final SSLContext context = context(args[3], args[4].toCharArray());
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicLong handshakes = new AtomicLong();
        final AtomicLong failures = new AtomicLong();
        final Thread[] flooders = new Thread[threads];
        for (int i = 0; i < threads; i++)
        {
            flooders[i] = new Thread(() ->
            {
                final byte[] echo = new byte[5];
                while (!stop.get())
                {
                    try (Socket raw = new Socket())
                    {
                        raw.connect(new InetSocketAddress(host, port), 30_000);
                        raw.setSoTimeout(60_000);
                        try (SSLSocket tls = (SSLSocket)context.getSocketFactory().createSocket(raw, host, port, true))
                        {
                            tls.startHandshake();
                            handshakes.incrementAndGet();
                            final OutputStream out = tls.getOutputStream();
                            out.write("flood".getBytes(StandardCharsets.US_ASCII));
                            out.flush();
                            final InputStream in = tls.getInputStream();
                            int at = 0;
                            while (at < echo.length)
                            {
                                final int n = in.read(echo, at, echo.length - at);
                                if (n < 0)
                                {
                                    throw new IOException("closed before the echo");
                                }
                                at += n;
                            }
                            tls.getSession().invalidate(); // so that the next connection shakes hands in full
                        }
                    }
                    catch (final IOException ex)
                    {
                        if (!stop.get())
                        {
                            failures.incrementAndGet();
                        }
                    }
                }
            }, "flooder-" + i);
            flooders[i].start();
        }
        System.out.println("flooding");
        System.out.flush();
        final BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = commands.readLine()) != null && !line.equals("stop"))
        {
            // only stop, or the end of stdin, ends the flood
        }
        stop.set(true);
        for (final Thread flooder : flooders)
        {
            flooder.join(90_000);
        }
        System.out.println("done " + handshakes.get() + " " + failures.get());
        System.out.flush();
    }

    private static SSLContext context(final String trustStore, final char[] password) throws Exception
    {
        final KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = new FileInputStream(trustStore))
        {
            store.load(in, password);
        }
        final TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(store);
        final SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }
}
