package io.celer.examples.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.celer.examples.Demo;
import io.celer.examples.cli.Running;
import io.celer.examples.support.DemoRuns;
import io.celer.reactor.Reactor;
import io.celer.test.Reactors;
import io.celer.websocket.Utf8Text;
import io.celer.websocket.WebSocket;
import io.celer.websocket.WebSocketHandler;
import io.celer.websocket.client.WebSocketClient;

/**
 * The Autobahn TestSuite's cases, run by {@code kosoku} over loopback: against {@code ws-echo} (sections 1 to 7,
 * 9 and 10, then 12 and 13 with permessage-deflate), and as the server that Celer's client runs each case of
 * sections 1 to 10 against. Skipped without kosoku ({@code ./celer test} installs it); bounded in time per case
 * and per run. Two of section 12's five kinds of payload have a tag of their own, {@code autobahn-12}, so that
 * the whole suite can run them in the other JDK's lane: the compression cases are minutes of CPU.
 */
class AutobahnConformanceTest
{
    /** Sections 1 to 10; the suite has no section 8. */
    private static final List<String> CORE = List.of("1.*", "2.*", "3.*", "4.*", "5.*", "6.*", "7.*", "9.*", "10.*");
    private static final Duration CASE_BOUND = Duration.ofSeconds(90);

    @RegisterExtension
    final DemoRuns demos = new DemoRuns(Demo::execute);
    private final Reactors reactors = new Reactors();
    private Kosoku kosoku;

    @AfterEach
    void stop()
    {
        if (kosoku != null)
        {
            kosoku.stop();
        }
        reactors.close();
    }

    @Test
    @Tag("autobahn")
    @Timeout(value = 32, unit = TimeUnit.MINUTES) // the run's own bound below, not the suite's default of 5
    void wsEchoPassesTheServerCases(@TempDir final Path work) throws Exception
    {
        final List<String> cases = new ArrayList<>(CORE);
        cases.addAll(List.of("12.3.*", "12.4.*", "12.5.*", "13.*"));
        // 301 cases in sections 1 to 10, 54 of section 12, 126 in section 13.
        passes(work, cases, "fuzzingclient against ws-echo (1-7, 9, 10, 12.3-12.5, 13)", 470);
    }

    @Test
    @Tag("autobahn-12")
    @Timeout(value = 32, unit = TimeUnit.MINUTES)
    void wsEchoPassesTheFirstCompressionCasesOfSection12(@TempDir final Path work) throws Exception
    {
        // 18 message sizes for each of two payloads; 207 s of the run for the whole section on a quiet machine.
        passes(work, List.of("12.1.*", "12.2.*"), "fuzzingclient against ws-echo (12.1, 12.2)", 36);
    }

    /** Runs kosoku's cases against a fresh ws-echo and checks that at least {@code least} ran, every one passed. */
    private void passes(final Path work, final List<String> cases, final String what, final int least)
        throws Exception
    {
        Kosoku.assumeInstalled();
        final Running echo = demos.start("ws-echo", "--host", "127.0.0.1", "--port", "0");
        kosoku = new Kosoku(work);
        // Each case is bounded by kosoku's own per-case timeouts; the run by this bound, for a hang. The run is
        // CPU-bound (sections 12 and 13, compressing and echoing 1,000 messages a case, are nearly all of it): on two
        // cores shared with another build both took 5 to 9 minutes, and more cases at once made it no shorter.
        kosoku.start("fuzzingclient", "127.0.0.1:" + echo.port(), cases, "-p", "4");
        kosoku.await(Duration.ofMinutes(30));
        kosoku.assertAllPassed(what, least);
    }

    @Test
    @Tag("autobahn")
    void celersClientPassesTheClientCases(@TempDir final Path work) throws Exception
    {
        Kosoku.assumeInstalled();
        kosoku = new Kosoku(work);
        kosoku.start("fuzzingserver", "127.0.0.1:0", CORE);
        final int port = listeningPort(work.resolve("kosoku.log"));
        final Reactor reactor = reactors.start("autobahn-client");
        final String base = "ws://127.0.0.1:" + port;

        final Recorder count = run(reactor, base + "/getCaseCount", false);
        final int cases = Integer.parseInt(count.lastText.trim());
        assertThat(cases).as("cases kosoku serves").isGreaterThan(200);
        final List<String> timedOut = new ArrayList<>();
        for (int i = 1; i <= cases; i++)
        {
            final Recorder recorder = run(reactor, base + "/runCase?case=" + i + "&agent=celer", true);
            if (!recorder.finished)
            {
                timedOut.add(String.valueOf(i));
            }
        }
        run(reactor, base + "/updateReports?agent=celer", false);
        kosoku.await(Duration.ofMinutes(2));
        assertThat(timedOut).as("cases that did not end within " + CASE_BOUND).isEmpty();
        kosoku.assertAllPassed("fuzzingserver with Celer's client (1-7, 9, 10)", cases);
    }

    /** Connects, lets the case run until the server closes, and drops the connection past the bound. */
    private static Recorder run(final Reactor reactor, final String url, final boolean echo)
        throws InterruptedException
    {
        final Recorder recorder = new Recorder(echo);
        // kosoku never times out an opening handshake: the client bounds it, and the whole case below.
        final WebSocketClient client = new WebSocketClient(reactor, url, WsEchoServer.webSocketConfig(), recorder)
            .handshakeTimeoutMillis(30_000).open();
        recorder.finished = recorder.closed.await(CASE_BOUND.toMillis(), TimeUnit.MILLISECONDS);
        if (!recorder.finished)
        {
            client.close();
        }
        return recorder;
    }

    /** Reads the port kosoku's fuzzing server bound from its log. */
    private static int listeningPort(final Path log) throws IOException, InterruptedException
    {
        final Pattern listening = Pattern.compile("listening on ws://[^:]+:(\\d+)");
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline)
        {
            if (Files.exists(log))
            {
                final Matcher matcher = listening.matcher(Files.readString(log, StandardCharsets.UTF_8));
                if (matcher.find())
                {
                    return Integer.parseInt(matcher.group(1));
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("kosoku's fuzzing server did not start within 60 s");
    }

    /** Echoes like ws-echo (or only records), and says when the connection is done. */
    private static final class Recorder implements WebSocketHandler
    {
        final CountDownLatch closed = new CountDownLatch(1);
        private final EchoSocketHandler echo = new EchoSocketHandler(System.out);
        private final boolean echoing;
        volatile String lastText = "";
        volatile boolean finished;

        Recorder(final boolean echoing)
        {
            this.echoing = echoing;
        }

        @Override
        public void opened(final WebSocket socket)
        {
            echo.opened(socket);
        }

        @Override
        public void text(final WebSocket socket, final Utf8Text message)
        {
            if (echoing)
            {
                echo.text(socket, message);
            }
            else
            {
                lastText = message.toString();
            }
        }

        @Override
        public void binary(final WebSocket socket, final ByteBuffer message)
        {
            if (echoing)
            {
                echo.binary(socket, message);
            }
        }

        @Override
        public void writable(final WebSocket socket, final int freeBytes)
        {
            echo.writable(socket, freeBytes);
        }

        @Override
        public void closed(final WebSocket socket, final int code)
        {
            closed.countDown();
        }
    }
}
