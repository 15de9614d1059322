package io.celer.examples.cli;

import java.nio.file.Path;

import io.celer.tcp.TcpConfig;
import io.celer.tls.TlsConfig;
import picocli.CommandLine.Option;

/**
 * A client's TLS options: {@code --tls --truststore FILE --storepass PASS}. A picocli mixin.
 */
public final class ClientTlsOptions
{
    @Option(names = "--tls",
        description = "Speak TLS, checking the server's certificate against --truststore (or the JDK's " +
            "default trust store) and its host name.")
    private boolean tls;

    @Option(names = "--truststore", paramLabel = "FILE",
        description = "The PKCS12 or JKS store of the certificates to trust.")
    private Path trustStore;

    @Option(names = "--storepass", paramLabel = "PASS", defaultValue = "",
        description = "The password of --truststore.")
    private String storePassword;

    /**
     * Whether {@code --tls} was given.
     *
     * @return true for TLS.
     */
    public boolean enabled()
    {
        return tls;
    }

    /**
     * Checks that the options go together.
     *
     * @param alwaysTls whether the client speaks TLS without {@code --tls}.
     * @throws UsageException if a trust store is given to a client that does not speak TLS.
     */
    public void validate(final boolean alwaysTls)
    {
        if (!tls && !alwaysTls && trustStore != null)
        {
            throw new UsageException("--truststore only goes with --tls");
        }
    }

    /**
     * The TLS settings the options give: trust the trust store, or the JDK's without one.
     *
     * @return new settings.
     */
    public TlsConfig tlsConfig()
    {
        final TlsConfig config = new TlsConfig();
        return trustStore != null ? config.trustStore(trustStore, storePassword) : config;
    }

    /**
     * Turns TLS on in a configuration when asked.
     *
     * @param config    the client's settings.
     * @param alwaysTls whether to speak TLS without {@code --tls}.
     * @return the same settings, with TLS if asked.
     */
    public TcpConfig apply(final TcpConfig config, final boolean alwaysTls)
    {
        return tls || alwaysTls ? config.transport(tlsConfig()) : config;
    }
}
