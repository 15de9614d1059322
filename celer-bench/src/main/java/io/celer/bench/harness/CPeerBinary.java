package io.celer.bench.harness;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Compiles the C peer with {@code gcc -O2}, once per source change, next to the module's classes.
 */
public final class CPeerBinary
{
    private static final String SOURCE = "/c/celer_bench_peer.c";
    private static final String BINARY = "celer_bench_peer";

    private CPeerBinary()
    {
    }

    /**
     * The compiled C peer, built now if missing or older than its source.
     *
     * @return the executable.
     * @throws BenchException if the source is missing or gcc fails.
     */
    public static Path build()
    {
        final URL source = CPeerBinary.class.getResource(SOURCE);
        if (source == null)
        {
            throw new BenchException("C peer source " + SOURCE + " is not on the classpath");
        }
        try
        {
            final Path dir = outputDirectory(source);
            final Path copy = dir.resolve(BINARY + ".c");
            final Path binary = dir.resolve(BINARY);
            final byte[] text;
            try (InputStream in = source.openStream())
            {
                text = in.readAllBytes();
            }
            final boolean same = Files.exists(copy) && java.util.Arrays.equals(Files.readAllBytes(copy), text);
            if (same && Files.isExecutable(binary))
            {
                return binary;
            }
            Files.createDirectories(dir);
            final Path temp = Files.createTempFile(dir, BINARY, ".c");
            Files.write(temp, text);
            try
            {
                compile(temp, binary);
                // The copy marks the binary as built from this text, so it is written only on success.
                Files.move(temp, copy, StandardCopyOption.REPLACE_EXISTING);
            }
            finally
            {
                Files.deleteIfExists(temp);
            }
            return binary;
        }
        catch (final IOException ex)
        {
            throw new BenchException("cannot build the C peer: " + ex);
        }
    }

    private static Path outputDirectory(final URL source)
    {
        if ("file".equals(source.getProtocol()))
        {
            try
            {
                // .../celer-bench/target/classes/c/celer_bench_peer.c -> .../celer-bench/target
                return Path.of(source.toURI()).getParent().getParent().getParent();
            }
            catch (final URISyntaxException ex)
            {
                // Fall through to the temporary directory.
            }
        }
        return Path.of(System.getProperty("java.io.tmpdir"), "celer-bench");
    }

    private static void compile(final Path source, final Path binary) throws IOException
    {
        final List<String> command = List.of("gcc", "-O2", "-Wall", "-pthread", "-o", binary.toString(),
            source.toString());
        final Process gcc;
        try
        {
            gcc = new ProcessBuilder(command).redirectErrorStream(true).start();
        }
        catch (final IOException ex)
        {
            throw new BenchException("the C peer needs gcc, which could not be run: " + ex.getMessage());
        }
        try
        {
            final String output = new String(gcc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!gcc.waitFor(120, TimeUnit.SECONDS))
            {
                gcc.destroyForcibly();
                throw new BenchException("gcc took more than 120 s on the C peer");
            }
            if (gcc.exitValue() != 0)
            {
                throw new BenchException("gcc failed on the C peer:\n" + output);
            }
        }
        catch (final InterruptedException ex)
        {
            gcc.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new BenchException("interrupted while compiling the C peer");
        }
    }
}
