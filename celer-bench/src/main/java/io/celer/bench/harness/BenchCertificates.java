package io.celer.bench.harness;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throw-away certificate authority and a server certificate it signed for {@code localhost} and
 * {@code 127.0.0.1}, made with the JDK's keytool for a {@code --tls} run and deleted with its folder.
 *
 * @param keyStore   the server's PKCS12 key store: its key and chain.
 * @param trustStore the clients' PKCS12 trust store: the CA.
 * @param password   the password of both.
 */
public record BenchCertificates(Path keyStore, Path trustStore, String password)
{
    /** Nobody else ever sees these stores: a fixed password does no harm. */
    private static final String PASSWORD = "celer-bench";

    /**
     * Makes the stores.
     *
     * @param dir an existing, private folder.
     * @return where they are.
     * @throws BenchException when keytool fails.
     */
    public static BenchCertificates make(final Path dir)
    {
        keytool(dir, "-genkeypair", "-keystore", "ca.p12", "-alias", "ca", "-dname", "CN=Celer Bench CA",
            "-ext", "bc:c", "-validity", "2");
        keytool(dir, "-exportcert", "-keystore", "ca.p12", "-alias", "ca", "-rfc", "-file", "ca.pem");
        keytool(dir, "-importcert", "-keystore", "trust.p12", "-alias", "ca", "-file", "ca.pem", "-noprompt");
        keytool(dir, "-genkeypair", "-keystore", "server.p12", "-alias", "server", "-dname", "CN=localhost");
        keytool(dir, "-certreq", "-keystore", "server.p12", "-alias", "server", "-file", "server.csr");
        keytool(dir, "-gencert", "-keystore", "ca.p12", "-alias", "ca", "-infile", "server.csr", "-outfile",
            "server.pem", "-rfc", "-validity", "2", "-ext", "san=dns:localhost,ip:127.0.0.1");
        // The CA first, so that the server's reply below imports as a chain onto its own key.
        keytool(dir, "-importcert", "-keystore", "server.p12", "-alias", "ca", "-file", "ca.pem", "-noprompt");
        keytool(dir, "-importcert", "-keystore", "server.p12", "-alias", "server", "-file", "server.pem",
            "-noprompt");
        return new BenchCertificates(dir.resolve("server.p12"), dir.resolve("trust.p12"), PASSWORD);
    }

    private static void keytool(final Path dir, final String... args)
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        // Eight short-lived JVMs: the quick compiler and a small collector start them faster.
        command.addAll(List.of("-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC"));
        command.addAll(List.of(args));
        if (!args[0].equals("-exportcert"))
        {
            command.addAll(List.of("-storetype", "PKCS12"));
        }
        command.addAll(List.of("-storepass", PASSWORD));
        if (args[0].equals("-genkeypair"))
        {
            command.addAll(List.of("-keyalg", "EC", "-groupname", "secp256r1", "-keypass", PASSWORD));
        }
        try
        {
            final Process process =
                new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
            final String output = new String(process.getInputStream().readAllBytes());
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0)
            {
                process.destroyForcibly();
                throw new BenchException("keytool " + args[0] + " failed: " + output.strip());
            }
        }
        catch (final IOException ex)
        {
            throw new BenchException("cannot run keytool: " + ex.getMessage());
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new BenchException("interrupted while making certificates");
        }
    }
}
