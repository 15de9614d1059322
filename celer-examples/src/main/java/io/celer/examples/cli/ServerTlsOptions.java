package io.celer.examples.cli;

import java.nio.file.Path;

import io.celer.tcp.TcpConfig;
import io.celer.tls.TlsConfig;
import picocli.CommandLine.Option;

/**
 * A server's TLS options: {@code --tls --keystore FILE --storepass PASS}. A picocli mixin.
 */
public final class ServerTlsOptions
{
    @Option(names = "--tls", description = "Speak TLS, presenting the certificate of --keystore.")
    private boolean tls;

    @Option(names = "--keystore", paramLabel = "FILE",
        description = "With --tls: the PKCS12 (.p12) or JKS (.jks) key store with the certificate and key.")
    private Path keyStore;

    @Option(names = "--storepass", paramLabel = "PASS", defaultValue = "", description = "The password of --keystore.")
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
     * @param name the demo's name, for the message.
     * @throws UsageException if {@code --tls} lacks a key store or a key store lacks {@code --tls}.
     */
    public void validate(final String name)
    {
        if (tls && keyStore == null)
        {
            throw new UsageException(name + " --tls needs --keystore FILE");
        }
        if (!tls && keyStore != null)
        {
            throw new UsageException("--keystore only goes with --tls");
        }
    }

    /**
     * Turns TLS on in a configuration when asked.
     *
     * @param config the server's settings.
     * @return the same settings, presenting the key store's certificate with {@code --tls}.
     */
    public TcpConfig apply(final TcpConfig config)
    {
        return tls ? config.transport(new TlsConfig().keyStore(keyStore, storePassword)) : config;
    }
}
