package io.celer.examples.cli;

import java.nio.file.Path;

import io.celer.tls.TlsConfig;
import picocli.CommandLine.Option;

/**
 * The certificates a TLS client trusts: {@code --truststore FILE --storepass PASS}, the JDK's without them. A
 * picocli mixin.
 */
public final class TrustStoreOptions
{
    @Option(names = "--truststore", paramLabel = "FILE",
        description = "The PKCS12 or JKS store of the certificates to trust over TLS (default: the JDK's).")
    private Path trustStore;

    @Option(names = "--storepass", paramLabel = "PASS", defaultValue = "",
        description = "The password of --truststore.")
    private String storePassword;

    /**
     * Whether {@code --truststore} was given.
     *
     * @return true for a trust store of its own.
     */
    public boolean given()
    {
        return trustStore != null;
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
}
