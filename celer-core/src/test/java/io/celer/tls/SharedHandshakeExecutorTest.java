package io.celer.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorConfig;
import io.celer.reactor.internal.SpinningReactors;

/**
 * The process's default handshake executor runs a step at the process's priority while a reactor spins, and on
 * its background pool otherwise, whose threads lower their priority once warm; the system property that sets
 * one priority instead is checked when a TLS server or client opens.
 */
class SharedHandshakeExecutorTest
{
    @Test
    void whileAReactorSpinsTheStepsRunAtTheProcesssPriority() throws Exception
    {
        assumeTrue(Files.exists(Path.of("/proc/thread-self/stat")), "Linux only");
        assumeTrue(System.getProperty("celer.tls.handshakeNice") == null, "the default nice value");
        SharedHandshakeExecutor.INSTANCE.start();
        final int before = SpinningReactors.count();
        try (Reactor spinning = new Reactor(new ReactorConfig().name("spinning")).start())
        {
            spinning.call(() -> { }); // its thread runs
            assertThat(SpinningReactors.count()).isEqualTo(before + 1);
            final CompletableFuture<String> ran = new CompletableFuture<>();
            SharedHandshakeExecutor.INSTANCE.execute(() -> ran.complete(Thread.currentThread().getName() + " " + nice()));
            assertThat(ran.get(30, TimeUnit.SECONDS)).doesNotContain("background").endsWith(" " + processNice());
        }
    }

    @Test
    void withoutASpinningReactorTheStepsGoToTheBackgroundPool() throws Exception
    {
        assumeTrue(System.getProperty("celer.tls.handshakeNice") == null, "the default nice value");
        assumeTrue(!SpinningReactors.any(), "no other test's spinning reactor runs");
        SharedHandshakeExecutor.INSTANCE.start();
        try (Reactor waiting = new Reactor(new ReactorConfig().name("waiting").waitInSelector(true)).start())
        {
            waiting.call(() -> { }); // its thread runs
            final CompletableFuture<String> ran = new CompletableFuture<>();
            SharedHandshakeExecutor.INSTANCE.execute(() -> ran.complete(Thread.currentThread().getName()));
            assertThat(ran.get(30, TimeUnit.SECONDS)).startsWith("celer-tls-handshake-background-");
        }
    }

    @Test
    void aBackgroundThreadLowersItsPriorityOnceWarm() throws Exception
    {
        assumeTrue(Files.exists(Path.of("/proc/thread-self/stat")), "Linux only");
        final int warm = 10;
        final int process = processNice();
        assumeTrue(process < 19, "a process not at nice 19 already");
        final ThreadPoolExecutor pool = SharedHandshakeExecutor.pool("test-handshake-", 1, 19, warm);
        try
        {
            final List<Integer> seen = new ArrayList<>();
            for (int i = 0; i < warm + 3; i++)
            {
                final CompletableFuture<Integer> ran = new CompletableFuture<>();
                pool.execute(() -> ran.complete(nice()));
                seen.add(ran.get(30, TimeUnit.SECONDS));
            }
            assumeTrue(seen.get(warm) != process, "renice available");
            assertThat(seen.subList(0, warm)).as("cold").containsOnly(process);
            assertThat(seen.subList(warm, warm + 3)).as("warm").containsOnly(19);
        }
        finally
        {
            pool.shutdownNow();
        }
    }

    private static int nice()
    {
        try
        {
            final String stat = new String(Files.readAllBytes(Path.of("/proc/thread-self/stat")),
                StandardCharsets.US_ASCII);
            return Integer.parseInt(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[16]);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static int processNice() throws IOException
    {
        final String mine = new String(Files.readAllBytes(Path.of("/proc/self/stat")), StandardCharsets.US_ASCII);
        return Integer.parseInt(mine.substring(mine.lastIndexOf(')') + 2).split(" ")[16]);
    }

    @Test
    void aBadNiceValueFailsWhenATlsServerOrClientOpens()
    {
        final String before = System.getProperty("celer.tls.handshakeNice");
        try
        {
            for (final String bad : new String[] {"20", "-1", "low"})
            {
                System.setProperty("celer.tls.handshakeNice", bad);
                assertThatThrownBy(SharedHandshakeExecutor.INSTANCE::start).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("celer.tls.handshakeNice").hasMessageContaining(bad);
            }
        }
        finally
        {
            if (before == null)
            {
                System.clearProperty("celer.tls.handshakeNice");
            }
            else
            {
                System.setProperty("celer.tls.handshakeNice", before);
            }
        }
    }
}
