package io.celer.examples.fanout;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.examples.support.PipelinedLineClient;
import io.celer.examples.support.Loopback;

/**
 * The back-end answers each line with its port, a colon and the line, in order, to several clients at once.
 */
class BackendServerTest
{
    @RegisterExtension
    final Loopback loopback = new Loopback();

    @Test
    void answersEachLineWithItsPortInOrder() throws Exception
    {
        final BackendServer backend = new BackendServer(loopback.reactor("backend"), 0, Loopback.config()).open();
        final int port = backend.port();
        final List<CompletableFuture<List<String>>> results = new ArrayList<>();
        final List<List<String>> sent = new ArrayList<>();
        for (int c = 0; c < 3; c++)
        {
            final List<String> lines = new ArrayList<>();
            for (int i = 0; i < 2_000; i++)
            {
                lines.add(i % 100 == 0 ? "" : "client " + c + " line " + i);
            }
            sent.add(lines);
            results.add(PipelinedLineClient.exchangeAsync(port, 500, lines, null));
        }
        for (int c = 0; c < 3; c++)
        {
            assertThat(results.get(c).get(60, TimeUnit.SECONDS))
                .isEqualTo(sent.get(c).stream().map(line -> port + ":" + line).toList());
        }
        assertThat(backend.answered()).isEqualTo(6_000);
    }
}
