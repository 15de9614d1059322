package io.celer.examples.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.celer.examples.Demo;
import io.celer.examples.cli.Running;
import io.celer.examples.support.DemoRuns;
import io.celer.examples.support.Loopback;

/**
 * Conformance with real peers against the demos as the command line starts them: curl (HTTP/1.0 and 1.1, one
 * connection for two URLs, chunked and {@code Expect: 100-continue} uploads, HEAD), ApacheBench with and
 * without keep-alive, wrk and h2load on {@code /plaintext}, and ApacheBench on the time-block page. Each run is
 * bounded in time and on loopback; a missing tool skips its test with a message. Speed is never asserted.
 */
@Tag("peers")
class HttpPeersTest
{
    private static final int LIMIT_SECONDS = 120;

    @RegisterExtension
    final DemoRuns demos = new DemoRuns(Demo::execute);

    private String start(final String demo) throws Exception
    {
        final Running running = demos.start(demo, "--host", Loopback.HOST, "--port", "0");
        return "http://127.0.0.1:" + running.port();
    }

    private static Tools.Run run(final String... command) throws Exception
    {
        final Tools.Run run = Tools.run(LIMIT_SECONDS, List.of(command));
        assertThat(run.exitCode()).as("%s exited with: %s", String.join(" ", command), run.output()).isZero();
        return run;
    }

    private static List<String> curl(final String... args)
    {
        final List<String> command = new ArrayList<>(List.of("curl", "--max-time", "30", "-sS"));
        command.addAll(List.of(args));
        return command;
    }

    private static String curlOutput(final String... args) throws Exception
    {
        return run(curl(args).toArray(String[]::new)).output().replace("\r\n", "\n");
    }

    @Test
    void curlSpeaksHttp10And11AndHead() throws Exception
    {
        Tools.require("curl", "curl");
        final String base = start("http-hello");
        assertThat(curlOutput("--http1.1", "-i", base + "/plaintext"))
            .startsWith("HTTP/1.1 200 OK\n").contains("Content-Type: text/plain\n").endsWith("\n\nHello, World!");
        final String http10 = curlOutput("--http1.0", "-i", base + "/json");
        assertThat(http10).startsWith("HTTP/1.1 200 OK\n").contains("Connection: close\n", "Content-Length: 27\n")
            .endsWith("\n\n{\"message\":\"Hello, World!\"}");
        assertThat(curlOutput("-I", base + "/json"))
            .startsWith("HTTP/1.1 200 OK\n").contains("Content-Type: application/json\n", "Content-Length: 27\n")
            .endsWith("\n\n");
        assertThat(curlOutput("-i", base + "/nowhere")).startsWith("HTTP/1.1 404 Not Found\n");
    }

    @Test
    void curlReusesOneConnectionForTwoUrls(@TempDir final Path dir) throws Exception
    {
        Tools.require("curl", "curl");
        final String base = start("http-hello");
        final Path plaintext = dir.resolve("plaintext");
        final Path json = dir.resolve("json");
        final String output = curlOutput("-v", "-o", plaintext.toString(), base + "/plaintext",
            "-o", json.toString(), base + "/json");
        assertThat(plaintext).hasContent("Hello, World!");
        assertThat(json).hasContent("{\"message\":\"Hello, World!\"}");
        assertThat(output).containsPattern("Re-?using existing connection");
        assertThat(Pattern.compile("Connected to ").matcher(output).results().count())
            .as("connections opened, in: %s", output).isEqualTo(1);
    }

    @Test
    void curlUploadsChunkedAndAfterContinue(@TempDir final Path dir) throws Exception
    {
        Tools.require("curl", "curl");
        final String base = start("http-hello");
        for (final int length : new int[] {100, 300 * 1024})
        {
            final byte[] body = new byte[length];
            new Random(length).nextBytes(body);
            final Path upload = Files.write(dir.resolve("upload-" + length), body);
            final Path echoed = dir.resolve("echoed-" + length);
            run(curl("-H", "Transfer-Encoding: chunked", "-H", "Content-Type: application/x-upload",
                "--data-binary", "@" + upload, "-o", echoed.toString(), base + "/echo").toArray(String[]::new));
            assertThat(Files.readAllBytes(echoed)).as("chunked upload of %d bytes", length).isEqualTo(body);
        }
        final byte[] body = new byte[4 * 1024];
        new Random(7).nextBytes(body);
        final Path upload = Files.write(dir.resolve("expect"), body);
        final Path echoed = dir.resolve("expect-echoed");
        final String verbose = curlOutput("-v", "-H", "Expect: 100-continue", "--data-binary", "@" + upload,
            "-o", echoed.toString(), base + "/echo");
        assertThat(verbose).contains("> Expect: 100-continue", "< HTTP/1.1 100 Continue", "< HTTP/1.1 200 OK");
        assertThat(Files.readAllBytes(echoed)).isEqualTo(body);
    }

    @Test
    void apacheBenchWithAndWithoutKeepAlive() throws Exception
    {
        Tools.require("ab", "apache2-utils");
        final String base = start("http-hello");
        final String keepAlive = run("ab", "-n", "2000", "-c", "8", "-k", "-s", "30", base + "/plaintext").output();
        assertAbCompleted(keepAlive, 2000, 13);
        assertThat(number(keepAlive, "Keep-Alive requests:\\s+(\\d+)")).as(keepAlive).isEqualTo(2000);
        assertAbCompleted(run("ab", "-n", "2000", "-c", "8", "-s", "30", base + "/plaintext").output(), 2000, 13);
    }

    @Test
    void apacheBenchOnTheTimeBlockPage() throws Exception
    {
        Tools.require("ab", "apache2-utils");
        final String base = start("http-timeblock");
        assertAbCompleted(run("ab", "-n", "1000", "-c", "4", "-s", "30", base + "/gettimeblock").output(), 1000,
            TimeBlockPage.LENGTH);
    }

    private static void assertAbCompleted(final String report, final int requests, final int documentLength)
    {
        assertThat(number(report, "Complete requests:\\s+(\\d+)")).as(report).isEqualTo(requests);
        assertThat(number(report, "Failed requests:\\s+(\\d+)")).as(report).isZero();
        assertThat(number(report, "Document Length:\\s+(\\d+) bytes")).as(report).isEqualTo(documentLength);
        // ab prints this line only when some answers were not 2xx.
        assertThat(report).as(report).doesNotContain("Non-2xx responses");
    }

    @Test
    void wrkGetsOnlySuccessfulAnswers() throws Exception
    {
        Tools.require("wrk", "wrk");
        final String base = start("http-hello");
        final String report = run("wrk", "-t1", "-c16", "-d2s", "--timeout", "10s", base + "/plaintext").output();
        assertThat(number(report, "(\\d+) requests in ")).as(report).isPositive();
        // wrk prints these lines only when there were errors or answers other than 2xx and 3xx.
        assertThat(report).as(report).doesNotContain("Socket errors", "Non-2xx or 3xx responses");
    }

    @Test
    void h2loadOverHttp11Pipelines() throws Exception
    {
        Tools.require("h2load", "nghttp2-client");
        final String base = start("http-hello");
        final String report = run("h2load", "--h1", "-n", "2000", "-c", "8", "-m", "4", base + "/plaintext").output();
        assertThat(report).as(report).contains(
            "requests: 2000 total, 2000 started, 2000 done, 2000 succeeded, 0 failed, 0 errored, 0 timeout",
            "status codes: 2000 2xx, 0 3xx, 0 4xx, 0 5xx");
    }

    private static long number(final String text, final String regex)
    {
        final Matcher matcher = Pattern.compile(regex).matcher(text);
        assertThat(matcher.find()).as("'%s' in: %s", regex, text).isTrue();
        return Long.parseLong(matcher.group(1));
    }
}
