package io.celer.bench.http.tfb.peer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import picocli.CommandLine;

/**
 * {@link CelerTfbClient}, run in-process, counts right pipelined responses from a right server and fails on a
 * wrong one rather than counting it.
 */
@Timeout(60)
class CelerTfbClientTest
{
    @TempDir
    Path work;

    private CelerTfbClient run(final int port) throws Exception
    {
        final CelerTfbClient client = new CelerTfbClient();
        new CommandLine(client).setCaseInsensitiveEnumValuesAllowed(true).parseArgs("--port=" + port,
            "--connections=4", "--depth=16", "--route=plaintext", "--warmup-seconds=0", "--seconds=1",
            "--histogram=" + work.resolve("h.hdr"));
        assertThat(client.call()).isZero();
        return client;
    }

    @Test
    void countsRightResponses() throws Exception
    {
        try (CannedServer server = new CannedServer(CannedServer.plaintextWith("", "")))
        {
            final CelerTfbClient client = run(server.port());
            assertThat(client.failed()).as(client.firstFailure()).isZero();
            assertThat(client.responses()).isPositive();
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "Hello, World!|Hello, World?|a wrong body",
        "Date: Sat, 28 Nov 2026 13:00:00 GMT\\r\\n||Date",
        "Server: Canned\\r\\n||Server",
        "200 OK|500 Oops|not HTTP/1.1 200"})
    void failsOnAWrongResponse(final String from, final String to, final String reason) throws Exception
    {
        try (CannedServer server = new CannedServer(CannedServer.plaintextWith(unescape(from),
            to == null ? "" : unescape(to))))
        {
            final CelerTfbClient client = run(server.port());
            assertThat(client.failed()).isPositive();
            assertThat(client.firstFailure()).contains(reason);
        }
    }

    private static String unescape(final String text)
    {
        return text.replace("\\r\\n", "\r\n");
    }
}
