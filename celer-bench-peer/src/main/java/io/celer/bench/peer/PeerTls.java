package io.celer.bench.peer;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;

/**
 * The TLS settings a peer is started with under {@code bench tcp --tls}: a key store for a server, a trust store
 * for a client, TLS 1.3 on the JDK's provider.
 */
public final class PeerTls
{
    /** The only protocol version the peers offer, so every peer runs the same handshake and record layer. */
    public static final String PROTOCOL = "TLSv1.3";

    private final Path keyStore;
    private final Path trustStore;
    private final char[] password;

    private PeerTls(final Path keyStore, final Path trustStore, final String password)
    {
        this.keyStore = keyStore;
        this.trustStore = trustStore;
        this.password = password.toCharArray();
    }

    /**
     * Reads {@code --keystore}, {@code --truststore} and {@code --store-password}.
     *
     * @param child the process's arguments.
     * @return the settings, or null when the peer runs in the clear.
     */
    public static PeerTls of(final ChildProcess child)
    {
        final Path keys = child.pathArg("keystore");
        final Path trust = child.pathArg("truststore");
        if (keys == null && trust == null)
        {
            return null;
        }
        return new PeerTls(keys, trust, child.arg("store-password", ""));
    }

    /** @return the server's PKCS12 key store, or null on a client. */
    public Path keyStore()
    {
        return keyStore;
    }

    /** @return the client's PKCS12 trust store, or null on a server. */
    public Path trustStore()
    {
        return trustStore;
    }

    /** @return the stores' password. */
    public String password()
    {
        return new String(password);
    }

    /**
     * Key managers for a server.
     *
     * @return the factory, initialised from the key store.
     */
    public KeyManagerFactory keyManagers()
    {
        try
        {
            final KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(load(keyStore), password);
            return keys;
        }
        catch (final GeneralSecurityException | IOException ex)
        {
            throw new IllegalStateException("cannot load key store " + keyStore, ex);
        }
    }

    /**
     * Trust managers for a client.
     *
     * @return the factory, initialised from the trust store.
     */
    public TrustManagerFactory trustManagers()
    {
        try
        {
            final TrustManagerFactory trust =
                TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(load(trustStore));
            return trust;
        }
        catch (final GeneralSecurityException | IOException ex)
        {
            throw new IllegalStateException("cannot load trust store " + trustStore, ex);
        }
    }

    /**
     * A JDK context with whichever of the two stores this side has.
     *
     * @return the context.
     */
    public SSLContext sslContext()
    {
        try
        {
            final SSLContext context = SSLContext.getInstance(PROTOCOL);
            context.init(keyStore == null ? null : keyManagers().getKeyManagers(),
                trustStore == null ? null : trustManagers().getTrustManagers(), null);
            return context;
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException("cannot set up TLS", ex);
        }
    }

    /**
     * A client's parameters: TLS 1.3 only, and the server's certificate checked against the host name, as
     * Celer's client does by default.
     *
     * @param parameters the engine's or socket's parameters, changed in place.
     * @return them.
     */
    public static SSLParameters clientParameters(final SSLParameters parameters)
    {
        parameters.setProtocols(new String[] {PROTOCOL});
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        return parameters;
    }

    private KeyStore load(final Path path) throws GeneralSecurityException, IOException
    {
        final KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(path))
        {
            store.load(in, password);
        }
        return store;
    }
}
