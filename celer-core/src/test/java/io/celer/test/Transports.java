package io.celer.test;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

import io.celer.tcp.TransportFactory;
import io.celer.tls.TlsConfig;

/**
 * The transports the system tests run over, plain TCP and TLS: parameterize a test with this enum and it
 * takes both the Celer side's transport and a blocking peer socket from here.
 *
 * <p>The TLS side uses the {@link TestCertificates}: the server presents the {@code localhost} and
 * {@code 127.0.0.1} certificate, and every client trusts the test CA only and checks the host name.
 */
public enum Transports
{
    /** Bytes as they are. */
    PLAIN
    {
        @Override
        public TransportFactory server()
        {
            return TransportFactory.plain();
        }

        @Override
        public TransportFactory client()
        {
            return TransportFactory.plain();
        }

        @Override
        public Socket over(final Socket connected)
        {
            return connected;
        }
    },

    /** TLS, 1.3 or 1.2 as the peers agree. */
    TLS
    {
        @Override
        public TransportFactory server()
        {
            return new TlsConfig().sslContext(Contexts.SERVER);
        }

        @Override
        public TransportFactory client()
        {
            return new TlsConfig().sslContext(Contexts.CLIENT);
        }

        @Override
        public Socket over(final Socket connected) throws IOException
        {
            final String host = connected.getInetAddress().getHostAddress();
            final SSLSocket tls = (SSLSocket)Contexts.CLIENT.getSocketFactory()
                .createSocket(connected, host, connected.getPort(), true);
            final SSLParameters parameters = tls.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
            tls.setSSLParameters(parameters);
            tls.setSoTimeout(connected.getSoTimeout());
            // Celer's side opens only after the handshake; a peer that waits for that before writing would
            // otherwise wait forever, since an SSLSocket shakes hands on its first read or write.
            tls.startHandshake();
            return tls;
        }
    };

    /**
     * The transport a Celer server uses.
     *
     * @return a factory for {@code TcpConfig.transport}.
     */
    public abstract TransportFactory server();

    /**
     * The transport a Celer client uses: trusts the test CA and checks the host name.
     *
     * @return a factory for {@code TcpConfig.transport}.
     */
    public abstract TransportFactory client();

    /**
     * Speaks this transport over a connected socket; for TLS the handshake is done on return.
     *
     * @param connected a connected socket, with its options and read timeout set.
     * @return the socket to use from now on.
     * @throws IOException if the handshake fails.
     */
    public abstract Socket over(Socket connected) throws IOException;

    /**
     * A blocking peer connected to a Celer server, with TCP_NODELAY and a read timeout of
     * {@link Await#DEFAULT}.
     *
     * @param host the server's address.
     * @param port its port.
     * @return the socket, handshaken for TLS.
     * @throws IOException if it cannot connect.
     */
    public Socket connect(final String host, final int port) throws IOException
    {
        final Socket socket = new Socket(host, port);
        try
        {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout((int)Await.DEFAULT.toMillis());
            return over(socket);
        }
        catch (final IOException | RuntimeException ex)
        {
            socket.close();
            throw ex;
        }
    }

    /**
     * An SSL context for JDK clients (sockets, HTTP clients) that trusts the test CA only.
     *
     * @return the context.
     */
    public static SSLContext clientContext()
    {
        return Contexts.CLIENT;
    }

    /**
     * Built once: loading a PKCS12 store is slow, and many tests need the same two contexts.
     */
    private static final class Contexts
    {
        static final SSLContext SERVER = serverContext();
        static final SSLContext CLIENT = trustingContext();

        private static SSLContext serverContext()
        {
            try
            {
                final KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                keys.init(load(TestCertificates.get().server()), TestCertificates.PASSWORD.toCharArray());
                final SSLContext context = SSLContext.getInstance("TLS");
                context.init(keys.getKeyManagers(), null, null);
                return context;
            }
            catch (final GeneralSecurityException | IOException ex)
            {
                throw new IllegalStateException("cannot make the test server's SSL context", ex);
            }
        }

        private static SSLContext trustingContext()
        {
            try
            {
                final TrustManagerFactory trust =
                    TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                trust.init(load(TestCertificates.get().trustStore()));
                final SSLContext context = SSLContext.getInstance("TLS");
                context.init(null, trust.getTrustManagers(), null);
                return context;
            }
            catch (final GeneralSecurityException | IOException ex)
            {
                throw new IllegalStateException("cannot make the test clients' SSL context", ex);
            }
        }

        private static KeyStore load(final Path path) throws GeneralSecurityException, IOException
        {
            final KeyStore store = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(path))
            {
                store.load(in, TestCertificates.PASSWORD.toCharArray());
            }
            return store;
        }
    }
}
