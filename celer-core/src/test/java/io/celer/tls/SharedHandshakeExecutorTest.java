package io.celer.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * The process's default handshake executor runs its threads at the process's priority unless told otherwise;
 * the system property that lowers it is checked when a TLS server or client opens.
 */
class SharedHandshakeExecutorTest
{
    @Test
    void itsThreadsRunAtTheProcesssPriorityByDefault() throws Exception
    {
        assumeTrue(Files.exists(Path.of("/proc/thread-self/stat")), "Linux only");
        assumeTrue(System.getProperty("celer.tls.handshakeNice") == null, "the default nice value");
        SharedHandshakeExecutor.INSTANCE.start();
        final CompletableFuture<Integer> nice = new CompletableFuture<>();
        SharedHandshakeExecutor.INSTANCE.execute(() ->
        {
            try
            {
                final String stat = new String(Files.readAllBytes(Path.of("/proc/thread-self/stat")),
                    StandardCharsets.US_ASCII);
                nice.complete(Integer.parseInt(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[16]));
            }
            catch (final Exception ex)
            {
                nice.completeExceptionally(ex);
            }
        });
        final String mine = new String(Files.readAllBytes(Path.of("/proc/self/stat")), StandardCharsets.US_ASCII);
        assertThat(nice.get(30, TimeUnit.SECONDS))
            .isEqualTo(Integer.parseInt(mine.substring(mine.lastIndexOf(')') + 2).split(" ")[16]));
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
