package io.celer.examples.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.celer.examples.Demo;
import io.celer.examples.cli.Running;
import io.celer.examples.support.DemoRuns;

/**
 * A real browser against {@code ws-echo}: headless Chromium loads the demo's page in self-test mode, whose
 * script sends 1,000 messages of mixed kinds and sizes (text with multi-byte UTF-8, binary; up to 130 KB, so
 * some are fragmented and some use 64-bit lengths), over permessage-deflate as Chromium offers it, checks each
 * echo and sends its verdict, which the demo prints. Skipped when Chromium is not installed
 * ({@code ./celer test} installs it).
 */
@Tag("browser")
class BrowserSelfTest
{
    private static final int MESSAGES = 1000;
    private static final long BOUND_SECONDS = 180;

    @RegisterExtension
    final DemoRuns demos = new DemoRuns(Demo::execute);
    private Process browser;

    @AfterEach
    void stop() throws InterruptedException
    {
        if (browser != null)
        {
            browser.descendants().forEach(ProcessHandle::destroyForcibly);
            browser.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static String chromium()
    {
        for (final String name : List.of("chromium", "chromium-browser", "google-chrome"))
        {
            for (final String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
            {
                final Path candidate = Path.of(dir, name);
                if (Files.isExecutable(candidate))
                {
                    return candidate.toString();
                }
            }
        }
        return null;
    }

    @Test
    void chromiumEchoesAThousandMixedMessagesThroughWsEcho(@TempDir final Path profile) throws Exception
    {
        final String chromium = chromium();
        Assumptions.assumeTrue(chromium != null, "chromium is not installed (apt-get install chromium; " +
            "./celer test does it)");
        final Running echo = demos.start("ws-echo", "--host", "127.0.0.1", "--port", "0");
        browser = new ProcessBuilder(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-dev-shm-usage", "--user-data-dir=" + profile,
            "http://127.0.0.1:" + echo.port() + "/?selftest=" + MESSAGES)
            .redirectErrorStream(true).redirectOutput(profile.resolve("chromium.log").toFile()).start();

        final Pattern verdict = Pattern.compile("ws-echo: self-test (VERDICT [^\n]*)");
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
        Matcher matcher = verdict.matcher(demos.out());
        while (!matcher.find() && System.nanoTime() < deadline && browser.isAlive())
        {
            Thread.sleep(100);
            matcher = verdict.matcher(demos.out());
        }
        matcher = verdict.matcher(demos.out());
        assertThat(matcher.find()).as("a verdict within " + BOUND_SECONDS + " s; chromium's log:\n" +
            (Files.exists(profile.resolve("chromium.log")) ? Files.readString(profile.resolve("chromium.log")) : ""))
            .isTrue();
        System.out.println("chromium self-test: " + matcher.group(1));
        // Chromium offers permessage-deflate, so the echoes were compressed both ways.
        assertThat(matcher.group(1)).startsWith("VERDICT ok " + MESSAGES + " permessage-deflate");
    }
}
