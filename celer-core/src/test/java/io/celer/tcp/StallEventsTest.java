package io.celer.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.celer.counters.Counters;
import io.celer.framing.LineFraming;
import io.celer.reactor.Reactor;
import io.celer.reactor.internal.JfrEvents;
import io.celer.test.Await;
import io.celer.test.CapturedLog;
import io.celer.test.Reactors;
import io.celer.test.Sockets;

/**
 * A handler that sleeps 20 ms in a message stalls its reactor's cycle: the stall names the handler's class (not
 * the connection's) in the counters and the warning, and a JFR recording holds the stall and the connection's
 * opening and close, with their fields.
 */
class StallEventsTest
{
    @RegisterExtension
    final Reactors reactors = new Reactors();

    @TempDir
    Path dir;

    private final CapturedLog log = new CapturedLog(Reactor.class.getName());

    @AfterEach
    void detach()
    {
        log.close();
    }

    /** Echoes lines; sleeps 20 ms first on {@code slow}. */
    static final class SlowHandler implements Handler
    {
        @Override
        public void message(final Connection connection, final ByteBuffer message)
        {
            if (StandardCharsets.US_ASCII.decode(message.duplicate()).toString().startsWith("slow"))
            {
                try
                {
                    Thread.sleep(20);
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                }
            }
            connection.send(message);
        }
    }

    @Test
    void aStallNamesTheHandlerAndJfrRecordsItAndTheConnection() throws Exception
    {
        final Reactor reactor = reactors.start("stall-jfr");
        final String name = reactor.counters().name();
        final TcpServer server = new TcpServer(reactor, 0, new TcpConfig().bindAddress("127.0.0.1")
            .framing(() -> new LineFraming(128)), new SlowHandler());
        reactor.call(() -> server.open());
        final int localPort;
        try (Recording recording = new Recording())
        {
            Await.until("JFR started, Celer's event classes loaded", JfrEvents::ready);
            recording.enable("io.celer.Stall");
            recording.enable("io.celer.ConnectionOpened");
            recording.enable("io.celer.ConnectionClosed");
            recording.start();
            try (Socket client = new Socket("127.0.0.1", server.port()))
            {
                client.setSoTimeout(30_000);
                localPort = client.getLocalPort();
                final BufferedReader lines = Sockets.lineReader(client);
                Sockets.sendLine(client, "fast");
                assertThat(lines.readLine()).isEqualTo("fast");
                Sockets.sendLine(client, "slow");
                assertThat(lines.readLine()).isEqualTo("slow");
            }
            Await.until("the server saw the close", () -> Counters.process().reader()
                .sum(name, "tcp.connections.closed", "reason=peer_closed") == 1);
            recording.stop();
            final Path file = dir.resolve("stall.jfr");
            recording.dump(file);
            final List<RecordedEvent> events = RecordingFile.readAllEvents(file);

            // The first message may stall too, on class loading: the sleep is the longest.
            final List<RecordedEvent> stalls = of(events, "io.celer.Stall");
            assertThat(stalls).isNotEmpty();
            final RecordedEvent stall = stalls.stream()
                .filter(e -> e.getClass("culprit").getName().equals(SlowHandler.class.getName()))
                .max(java.util.Comparator.comparingLong(e -> e.getLong("culpritNanos")))
                .orElseThrow(() -> new AssertionError("no stall names the handler: " + stalls));
            assertThat(stall.getString("reactor")).isEqualTo(name);
            assertThat(stall.getLong("culpritNanos")).isGreaterThanOrEqualTo(20_000_000L);
            assertThat(stall.getLong("cycleNanos")).isGreaterThanOrEqualTo(stall.getLong("culpritNanos"));

            final RecordedEvent opened = single(events, "io.celer.ConnectionOpened");
            assertThat(opened.getString("reactor")).isEqualTo(name);
            assertThat(opened.getString("remoteAddress")).endsWith(":" + localPort);
            final RecordedEvent closed = single(events, "io.celer.ConnectionClosed");
            assertThat(closed.getString("reactor")).isEqualTo(name);
            assertThat(closed.getString("remoteAddress")).endsWith(":" + localPort);
            assertThat(closed.getLong("connectionId")).isEqualTo(opened.getLong("connectionId"));
            assertThat(closed.getString("reason")).isEqualTo(CloseReason.PEER_CLOSED.toString());
            assertThat(closed.getLong("bytesIn")).isEqualTo("fast\nslow\n".length());
            assertThat(closed.getLong("bytesOut")).isEqualTo("fast\nslow\n".length());
        }

        assertThat(Counters.process().reader().sum(name, "reactor.stall.culprits",
            "culprit=" + SlowHandler.class.getName())).isGreaterThanOrEqualTo(1);
        assertThat(Counters.process().reader().sum(name, "reactor.stall.culprits",
            "culprit=io.celer.tcp.TcpConnection")).isZero();
        // Opening the server may have stalled a cycle and taken the second's one line: slow lines go on until
        // the warning names the handler, at most a few seconds.
        try (Socket client = new Socket("127.0.0.1", server.port()))
        {
            client.setSoTimeout(30_000);
            final BufferedReader lines = Sockets.lineReader(client);
            for (int i = 0; i < 20 && log.containing(SlowHandler.class.getName()).isEmpty(); i++)
            {
                Sockets.sendLine(client, "slow");
                assertThat(lines.readLine()).isEqualTo("slow");
                Thread.sleep(200);
            }
        }
        assertThat(log.containing(SlowHandler.class.getName())).first()
            .satisfies(r -> assertThat(r.getMessage()).startsWith("reactor " + name + " stalled: a cycle took "));
    }

    private static List<RecordedEvent> of(final List<RecordedEvent> events, final String type)
    {
        return events.stream().filter(e -> e.getEventType().getName().equals(type)).collect(Collectors.toList());
    }

    private static RecordedEvent single(final List<RecordedEvent> events, final String type)
    {
        final List<RecordedEvent> matching = of(events, type);
        assertThat(matching).as(type).hasSize(1);
        return matching.get(0);
    }
}
