package io.celer.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.celer.reactor.Reactor;
import io.celer.test.Await;

/**
 * A server that runs out of descriptors or direct memory keeps its listener and the connections it can serve:
 * an accept that failed for lack of descriptors is dropped and the listener rests with a growing pause instead
 * of spinning; a connection that finds no memory for a buffer is closed alone; the log stays short, and the
 * server serves again by itself once resources free. Each case runs the server in a JVM of its own under the
 * limit.
 */
class ResourceExhaustionTest
{
    private static final int READ_TIMEOUT_MILLIS = 30_000;

    @TempDir
    Path dir;

    private Process server;
    private BufferedReader serverOut;
    private PrintStream serverIn;
    private final List<Socket> clients = new ArrayList<>();

    @AfterEach
    void stop() throws Exception
    {
        for (final Socket client : clients)
        {
            client.close();
        }
        if (server != null)
        {
            server.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void outOfDescriptorsTheServerRestsAndServesAgainOnceSomeAreFreed() throws Exception
    {
        final int port = start("ulimit -n 128 && exec \"$0\" \"$@\"", List.of());
        connect(port, 200);
        final long firstFailures = awaitFailures();

        assertThat(echoes(clients.get(0), "still served")).as("a connection accepted before; the server said: %s", errors()).isTrue();
        Thread.sleep(2_000); // a window to count accepts in: with the pause, a handful; spinning, thousands
        assertThat(stats()[1] - firstFailures).as("failed accepts in two seconds").isLessThanOrEqualTo(12);

        for (int i = 0; i < 100; i++)
        {
            clients.remove(clients.size() - 1).close();
        }
        final List<Socket> waiting = new ArrayList<>(clients.subList(1, clients.size()));
        for (final Socket client : waiting)
        {
            assertThat(echoes(client, "served at last")).as("a connection that waited in the accept queue").isTrue();
        }
        try (Socket fresh = new Socket("127.0.0.1", port))
        {
            assertThat(echoes(fresh, "fresh")).isTrue();
        }
        assertThat(warnings()).as("log lines").isLessThanOrEqualTo(3);
    }

    @Test
    void outOfDirectMemoryOnlyTheConnectionsThatFindNoBufferCloseAndTheServerServesAgainOnceSomeIsFreed()
        throws Exception
    {
        // A connection borrows a 64 KiB read buffer while it holds part of a line: some 40 fit in 3 MiB.
        final int port = start("exec \"$0\" \"$@\"", List.of("-XX:MaxDirectMemorySize=3m"));
        connect(port, 1);
        final Socket idle = clients.remove(0);
        assertThat(echoes(idle, "served before")).isTrue();

        connect(port, 80);
        for (final Socket client : clients)
        {
            client.getOutputStream().write("part of a line".getBytes(StandardCharsets.US_ASCII));
        }
        Await.until(() -> "connections closed for lack of a buffer; the server's errors: " + errors(),
            () -> stats()[2] > 0, Await.DEFAULT);
        final long[] held = stats();
        assertThat(held[0]).as("connections that hold a buffer").isBetween(10L, 79L);
        assertThat(held[1]).as("accepts failed: an accept needs no buffer").isZero();

        final List<Socket> holding = new ArrayList<>();
        for (final Socket client : clients)
        {
            if (ends(client, "of it"))
            {
                holding.add(client); // its line completed: it had its buffer
            }
        }
        assertThat(holding).as("connections that kept their buffer and got their line back").hasSizeBetween(10, 79);
        for (final Socket client : holding)
        {
            client.close(); // their buffers go back to the pool
        }
        assertThat(echoes(idle, "served again")).as("the idle one; the server said: %s", errors()).isTrue();
        try (Socket fresh = new Socket("127.0.0.1", port))
        {
            assertThat(echoes(fresh, "fresh")).isTrue();
        }
        assertThat(warnings()).as("log lines").isLessThanOrEqualTo(3);
    }

    /**
     * Ends a partly sent line and reads its echo.
     *
     * @return whether the whole line came back; false when the server had closed the connection.
     */
    private static boolean ends(final Socket client, final String rest) throws IOException
    {
        try
        {
            client.getOutputStream().write((" " + rest + "\n").getBytes(StandardCharsets.US_ASCII));
            final String line = new BufferedReader(new InputStreamReader(client.getInputStream(),
                StandardCharsets.US_ASCII)).readLine();
            return ("part of a line " + rest).equals(line);
        }
        catch (final IOException ex)
        {
            return false; // reset: the server closed it
        }
    }

    private int start(final String shell, final List<String> jvmFlags) throws IOException, URISyntaxException
    {
        final List<String> command = new ArrayList<>(List.of("bash", "-c", shell,
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-XX:AutoBoxCacheMax=65536"));
        command.addAll(jvmFlags);
        // Jars, as a deployed server runs from: a jar stays open, so loading a class needs no new descriptor,
        // where a class directory needs one per class. And few of them: each is a descriptor once opened.
        final Path jar = dir.resolve("server.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar)))
        {
            add(out, Path.of(location(Reactor.class)), name -> true);
            add(out, Path.of(location(LineEchoServerMain.class)),
                name -> name.startsWith(LineEchoServerMain.class.getName().replace('.', '/')));
        }
        command.addAll(List.of("-cp", jar + File.pathSeparator + location(org.agrona.DirectBuffer.class),
            LineEchoServerMain.class.getName()));
        server = new ProcessBuilder(command).redirectError(dir.resolve("stderr.txt").toFile()).start();
        serverOut = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.US_ASCII));
        serverIn = new PrintStream(server.getOutputStream(), true, StandardCharsets.US_ASCII);
        final String first = serverOut.readLine();
        assertThat(first).as("the server's first line; its errors: %s", errors()).startsWith("port ");
        return Integer.parseInt(first.substring(5));
    }

    /** Opens connections; the kernel completes them all, whether the server accepts them or not. */
    private void connect(final int port, final int count) throws IOException
    {
        for (int i = 0; i < count; i++)
        {
            final Socket client = new Socket("127.0.0.1", port);
            client.setSoTimeout(READ_TIMEOUT_MILLIS);
            clients.add(client);
        }
    }

    private long awaitFailures()
    {
        final long[] failures = new long[1];
        Await.until(() -> "a failed accept; the server's errors: " + errors(), () ->
        {
            failures[0] = stats()[1];
            return failures[0] > 0;
        }, Await.DEFAULT);
        return failures[0];
    }

    /** Open connections, failed accepts and connections closed for lack of a buffer, as the server counts them. */
    private long[] stats()
    {
        try
        {
            serverIn.println("stats");
            final String line = serverOut.readLine();
            assertThat(line).as("the server's answer; its errors: %s", errors()).startsWith("stats ");
            final String[] parts = line.split(" ");
            return new long[] {Long.parseLong(parts[1]), Long.parseLong(parts[2]), Long.parseLong(parts[3])};
        }
        catch (final IOException ex)
        {
            throw new AssertionError(ex);
        }
    }

    private static boolean echoes(final Socket client, final String text) throws IOException
    {
        client.setSoTimeout(READ_TIMEOUT_MILLIS);
        final OutputStream out = client.getOutputStream();
        out.write((text + "\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        final BufferedReader in = new BufferedReader(new InputStreamReader(client.getInputStream(),
            StandardCharsets.US_ASCII));
        try
        {
            return text.equals(in.readLine());
        }
        catch (final SocketTimeoutException ex)
        {
            return false;
        }
    }

    /** Warnings but the stall reports, which a loaded machine adds once a second whatever the server does. */
    private long warnings() throws IOException
    {
        return Files.readAllLines(dir.resolve("stderr.txt")).stream()
            .filter(l -> l.startsWith("WARNING") && !l.matches("WARNING: reactor .* stalled: .*")).count();
    }

    private String errors()
    {
        try
        {
            return Files.readString(dir.resolve("stderr.txt"));
        }
        catch (final IOException ex)
        {
            return ex.toString();
        }
    }

    /** Adds the class files under a directory (or of a jar, copied whole) that a name filter takes. */
    private static void add(final JarOutputStream out, final Path root, final Predicate<String> take) throws IOException
    {
        if (Files.isRegularFile(root))
        {
            try (JarInputStream in = new JarInputStream(Files.newInputStream(root)))
            {
                for (JarEntry entry = in.getNextJarEntry(); entry != null; entry = in.getNextJarEntry())
                {
                    if (!entry.isDirectory() && entry.getName().endsWith(".class") && take.test(entry.getName()))
                    {
                        out.putNextEntry(new JarEntry(entry.getName()));
                        in.transferTo(out);
                        out.closeEntry();
                    }
                }
            }
            return;
        }
        try (Stream<Path> files = Files.walk(root))
        {
            for (final Path file : (Iterable<Path>)files.filter(Files::isRegularFile)::iterator)
            {
                final String name = root.relativize(file).toString().replace(File.separatorChar, '/');
                if (name.endsWith(".class") && take.test(name))
                {
                    out.putNextEntry(new JarEntry(name));
                    Files.copy(file, out);
                    out.closeEntry();
                }
            }
        }
    }

    private static String location(final Class<?> type) throws URISyntaxException
    {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
