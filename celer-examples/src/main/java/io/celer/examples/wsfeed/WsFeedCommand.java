package io.celer.examples.wsfeed;

import java.util.Locale;
import java.util.concurrent.Callable;

import io.celer.examples.cli.ReactorOptions;
import io.celer.examples.cli.ServerOptions;
import io.celer.examples.cli.UsageException;
import io.celer.websocket.outbound.OverflowPolicy;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./celer demo ws-feed}: runs a {@link WsFeedServer} until stopped, on one reactor or several.
 */
@Command(
    name = "ws-feed",
    description = "offers every WebSocket client --rate numbered, time-stamped messages a second of --size bytes " +
        "through a bounded outbox each; a slow client loses messages by --policy, the others keep their pace")
public final class WsFeedCommand implements Callable<Integer>
{
    @Mixin
    private ServerOptions server;

    @Mixin
    private ReactorOptions reactors;

    @Option(names = "--rate", paramLabel = "R", defaultValue = "1000",
        description = "Messages a second to each client (default ${DEFAULT-VALUE}).")
    private int rate;

    @Option(names = "--size", paramLabel = "B", defaultValue = "250",
        description = "Bytes a message is padded to, its sequence number, send time and due time included " +
            "(default ${DEFAULT-VALUE}).")
    private int size;

    @Option(names = "--policy", paramLabel = "P", defaultValue = "drop-oldest",
        description = "What a full outbox does: drop-oldest, drop-newest or close (with 1008) " +
            "(default ${DEFAULT-VALUE}).")
    private String policy;

    @Option(names = "--queue", paramLabel = "N", defaultValue = "" + WsFeedServer.DEFAULT_QUEUED_MESSAGES,
        description = "Messages a client's outbox holds (default ${DEFAULT-VALUE}).")
    private int queue;

    @Option(names = "--queue-bytes", paramLabel = "BYTES", defaultValue = "" + WsFeedServer.DEFAULT_QUEUED_BYTES,
        description = "Payload bytes a client's outbox holds, whichever of this and --queue comes first " +
            "(default ${DEFAULT-VALUE}).")
    private int queueBytes;

    @Option(names = "--tick-ms", paramLabel = "T", defaultValue = "1",
        description = "Period of the timer that generates what is due (default ${DEFAULT-VALUE}).")
    private int tickMillis;

    @Option(names = "--send-buffer", paramLabel = "BYTES", defaultValue = "262144",
        description = "Each connection's kernel send buffer; smaller fills sooner behind a slow client " +
            "(default ${DEFAULT-VALUE}).")
    private int sendBuffer;

    /**
     * Parses a policy as the command line names it.
     *
     * @param name {@code drop-oldest}, {@code drop-newest} or {@code close}, any case.
     * @return the policy.
     * @throws UsageException on another name.
     */
    static OverflowPolicy policy(final String name)
    {
        switch (name.toLowerCase(Locale.ROOT))
        {
            case "drop-oldest":
                return OverflowPolicy.DROP_OLDEST;
            case "drop-newest":
                return OverflowPolicy.DROP_NEWEST;
            case "close":
                return OverflowPolicy.CLOSE;
            default:
                throw new UsageException("--policy is drop-oldest, drop-newest or close: " + name);
        }
    }

    /**
     * Runs the server until stopped (Ctrl-C).
     *
     * @return the exit code: 0 once stopped, 1 if it could not start.
     * @throws InterruptedException if interrupted while waiting.
     */
    @Override
    public Integer call() throws InterruptedException
    {
        if (rate < 1 || size < 1 || size > 1 << 20 || queue < 1 || queueBytes < 1 || tickMillis < 1 ||
            sendBuffer < 1)
        {
            throw new UsageException("--rate, --queue, --queue-bytes, --tick-ms and --send-buffer must be " +
                "positive, --size 1 to 1048576");
        }
        final WsFeedServer.Settings settings = new WsFeedServer.Settings(rate, size,
            WsFeedServer.outbound(policy(policy), queue, queueBytes, size), tickMillis);
        return server.serve(reactors, (group, running) -> WsFeedServer.open(group, server.port(),
            server.config().socketSendBufferSize(sendBuffer), settings, server.out()).localAddress());
    }
}
