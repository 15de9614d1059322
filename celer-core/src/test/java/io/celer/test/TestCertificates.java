package io.celer.test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throw-away certificate authority and the certificates the TLS tests need, made with the JDK's keytool, with
 * PEM copies for peers such as openssl.
 *
 * <p>Making them takes some twenty keytool runs, seconds on a quiet machine and up to a minute on a loaded one.
 * When the build names a folder for them (system property {@value #SHARED}), the first test JVM makes them there
 * and every later one of the build reuses them, as long as they are younger than {@link #FRESH_FOR}; otherwise
 * each JVM makes its own in a temporary folder.
 */
public final class TestCertificates
{
    /** The password of every store made here. */
    public static final String PASSWORD = "secret";

    /** The system property naming a folder the test JVMs of one build share their certificates in. */
    public static final String SHARED = "celer.test.certs";

    /** How long shared certificates are reused; the server's are valid for a year. */
    static final Duration FRESH_FOR = Duration.ofDays(7);

    /** Written last: a shared folder without it is incomplete. */
    private static final String MADE = "made";

    private static TestCertificates instance;

    private final Path dir;

    private TestCertificates(final Path dir)
    {
        this.dir = dir;
    }

    /**
     * The certificates, made on first use.
     *
     * @return the set.
     */
    public static synchronized TestCertificates get()
    {
        if (instance == null)
        {
            try
            {
                final String shared = System.getProperty(SHARED);
                instance = shared == null ? ownTemporary() : shared(Path.of(shared));
            }
            catch (final IOException | InterruptedException ex)
            {
                throw new IllegalStateException("cannot make test certificates", ex);
            }
        }
        return instance;
    }

    private static TestCertificates ownTemporary() throws IOException, InterruptedException
    {
        final TestCertificates made = new TestCertificates(Files.createTempDirectory("celer-certs"));
        Runtime.getRuntime().addShutdownHook(new Thread(made::delete, "celer-certs-cleanup"));
        made.make();
        return made;
    }

    /**
     * Reuses the shared folder's certificates when complete and fresh; else makes them beside it and moves them in
     * with one rename, so a JVM never sees a half-made set, and of two JVMs making them at once one set wins.
     */
    private static TestCertificates shared(final Path dir) throws IOException, InterruptedException
    {
        final Path made = dir.resolve(MADE);
        if (Files.exists(made) && Files.getLastModifiedTime(made).toInstant().plus(FRESH_FOR).isAfter(Instant.now()))
        {
            return new TestCertificates(dir);
        }
        if (Files.exists(dir))
        {
            final Path stale = Files.createTempDirectory(dir.getParent(), "stale-certs");
            Files.move(dir, stale.resolve("certs"), StandardCopyOption.ATOMIC_MOVE);
            new TestCertificates(stale.resolve("certs")).delete();
            Files.deleteIfExists(stale);
        }
        Files.createDirectories(dir.getParent());
        final TestCertificates fresh = new TestCertificates(Files.createTempDirectory(dir.getParent(), "new-certs"));
        fresh.make();
        Files.writeString(fresh.dir.resolve(MADE), Instant.now().toString());
        try
        {
            Files.move(fresh.dir, dir, StandardCopyOption.ATOMIC_MOVE);
        }
        catch (final FileAlreadyExistsException | DirectoryNotEmptyException ex)
        {
            // another JVM moved its set in first: use that one
            fresh.delete();
        }
        return new TestCertificates(dir);
    }

    /** @return the server key store as JKS. */
    public Path serverJks()
    {
        return dir.resolve("server.jks");
    }

    /** @return the trust store as JKS. */
    public Path trustStoreJks()
    {
        return dir.resolve("trust.jks");
    }

    /** @return a trust store holding the test CA. */
    public Path trustStore()
    {
        return dir.resolve("trust.p12");
    }

    /** @return a key store for {@code localhost} and {@code 127.0.0.1}, signed by the CA. */
    public Path server()
    {
        return dir.resolve("server.p12");
    }

    /** @return a key store for {@code localhost}, signed by the CA, expired yesterday. */
    public Path expired()
    {
        return dir.resolve("expired.p12");
    }

    /** @return a key store for {@code wrong.invalid}, signed by the CA. */
    public Path wrongHost()
    {
        return dir.resolve("wronghost.p12");
    }

    /** @return a key store for {@code localhost}, self-signed: no CA vouches for it. */
    public Path untrusted()
    {
        return dir.resolve("untrusted.p12");
    }

    /** @return a client certificate signed by the CA. */
    public Path client()
    {
        return dir.resolve("client.p12");
    }

    /** @return the CA certificate, PEM. */
    public Path caPem()
    {
        return dir.resolve("ca.pem");
    }

    /** @return the server's certificate chain and key, PEM, for openssl. */
    public Path serverPem()
    {
        return dir.resolve("server-full.pem");
    }

    /** @return the client's certificate chain and key, PEM, for openssl. */
    public Path clientPem()
    {
        return dir.resolve("client-full.pem");
    }

    private void delete()
    {
        try (java.util.stream.Stream<Path> files = Files.list(dir))
        {
            for (final Path file : (Iterable<Path>)files::iterator)
            {
                Files.deleteIfExists(file);
            }
            Files.deleteIfExists(dir);
        }
        catch (final IOException ex)
        {
            // a temporary folder left behind is harmless
        }
    }

    private void make() throws IOException, InterruptedException
    {
        keytool("-genkeypair", "-keystore", "ca.p12", "-alias", "ca", "-dname", "CN=Celer Test CA",
            "-ext", "bc:c", "-validity", "3650");
        keytool("-exportcert", "-keystore", "ca.p12", "-alias", "ca", "-rfc", "-file", "ca.pem");
        keytool("-importcert", "-keystore", "trust.p12", "-alias", "ca", "-file", "ca.pem", "-noprompt");
        signed("server", "CN=localhost", "san=dns:localhost,ip:127.0.0.1", "365", null);
        signed("expired", "CN=localhost", "san=dns:localhost,ip:127.0.0.1", "1", "-3d");
        signed("wronghost", "CN=wrong.invalid", "san=dns:wrong.invalid", "365", null);
        signed("client", "CN=celer-test-client", null, "365", null);
        keytool("-genkeypair", "-keystore", "untrusted.p12", "-alias", "untrusted", "-dname", "CN=localhost",
            "-ext", "san=dns:localhost,ip:127.0.0.1", "-validity", "365");
        pem("server");
        pem("client");
        jks("server");
        jks("trust");
    }

    /**
     * Copies a PKCS12 store into the older JKS format, so both formats are tested.
     */
    private void jks(final String name) throws IOException
    {
        try (InputStream in = Files.newInputStream(dir.resolve(name + ".p12"));
            java.io.OutputStream out = Files.newOutputStream(dir.resolve(name + ".jks")))
        {
            final KeyStore p12 = KeyStore.getInstance("PKCS12");
            p12.load(in, PASSWORD.toCharArray());
            final KeyStore jks = KeyStore.getInstance("JKS");
            jks.load(null, null);
            for (final String alias : java.util.Collections.list(p12.aliases()))
            {
                if (p12.isKeyEntry(alias))
                {
                    jks.setKeyEntry(alias, p12.getKey(alias, PASSWORD.toCharArray()), PASSWORD.toCharArray(),
                        p12.getCertificateChain(alias));
                }
                else
                {
                    jks.setCertificateEntry(alias, p12.getCertificate(alias));
                }
            }
            jks.store(out, PASSWORD.toCharArray());
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IOException("cannot write " + name + " as JKS", ex);
        }
    }

    private void signed(final String name, final String dname, final String san, final String validity,
        final String startDate) throws IOException, InterruptedException
    {
        keytool("-genkeypair", "-keystore", name + ".p12", "-alias", name, "-dname", dname);
        keytool("-certreq", "-keystore", name + ".p12", "-alias", name, "-file", name + ".csr");
        final List<String> gencert = new ArrayList<>(List.of("-gencert", "-keystore", "ca.p12", "-alias", "ca",
            "-infile", name + ".csr", "-outfile", name + ".pem", "-rfc", "-validity", validity));
        if (san != null)
        {
            gencert.add("-ext");
            gencert.add(san);
        }
        if (startDate != null)
        {
            gencert.add("-startdate");
            gencert.add(startDate);
        }
        keytool(gencert.toArray(new String[0]));
        keytool("-importcert", "-keystore", name + ".p12", "-alias", "ca", "-file", "ca.pem", "-noprompt");
        keytool("-importcert", "-keystore", name + ".p12", "-alias", name, "-file", name + ".pem", "-noprompt");
    }

    /**
     * Writes the key and its chain as PEM in Java, so that the certificates need no openssl: only the
     * interop tests do, and they skip without it.
     */
    private void pem(final String name) throws IOException
    {
        try (InputStream in = Files.newInputStream(dir.resolve(name + ".p12")))
        {
            final KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, PASSWORD.toCharArray());
            final Key key = store.getKey(name, PASSWORD.toCharArray());
            final StringBuilder pem = new StringBuilder();
            pemBlock(pem, "PRIVATE KEY", key.getEncoded());
            for (final Certificate certificate : store.getCertificateChain(name))
            {
                pemBlock(pem, "CERTIFICATE", certificate.getEncoded());
            }
            Files.writeString(dir.resolve(name + "-full.pem"), pem, StandardCharsets.US_ASCII);
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IOException("cannot write " + name + " as PEM", ex);
        }
    }

    private static void pemBlock(final StringBuilder pem, final String type, final byte[] der)
    {
        pem.append("-----BEGIN ").append(type).append("-----\n")
            .append(Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der))
            .append("\n-----END ").append(type).append("-----\n");
    }

    private void keytool(final String... args) throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        // Some twenty short-lived JVMs: the quick compiler and a small collector start them faster.
        command.addAll(List.of("-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC"));
        command.addAll(List.of(args));
        if (!List.of(args).contains("-exportcert"))
        {
            command.addAll(List.of("-storetype", "PKCS12"));
        }
        command.addAll(List.of("-storepass", PASSWORD));
        if (args[0].equals("-genkeypair"))
        {
            command.addAll(List.of("-keyalg", "EC", "-groupname", "secp256r1", "-keypass", PASSWORD));
        }
        run(command);
    }

    private void run(final List<String> command) throws IOException, InterruptedException
    {
        final Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0)
        {
            throw new IOException(String.join(" ", command) + " failed: " + output);
        }
    }
}
