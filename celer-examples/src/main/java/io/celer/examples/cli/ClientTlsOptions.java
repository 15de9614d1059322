package io.celer.examples.cli;

import io.celer.tcp.TcpConfig;
import io.celer.tls.TlsConfig;
import picocli.CommandLine.Mixin;
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

    @Mixin
    private TrustStoreOptions trust;

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
        if (!tls && !alwaysTls && trust.given())
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
        return trust.tlsConfig();
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
