package io.celer.examples;

import java.util.concurrent.Callable;

import io.celer.examples.cli.ClientOptions;
import io.celer.examples.cli.UsageException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./celer demo throughput-client}: runs a {@link ThroughputClient} until all is sent.
 */
@Command(
    name = "throughput-client",
    description = "sends --messages lines of --size bytes as fast as it can to a line or discard server, " +
        "and prints the rate")
public final class ThroughputClientCommand implements Callable<Integer>
{
    @Mixin
    private ClientOptions client;

    @Option(names = "--messages", paramLabel = "N", defaultValue = "" + ThroughputClient.DEFAULT_MESSAGES,
        description = "Messages to send (default ${DEFAULT-VALUE}).")
    private int messages;

    @Option(names = "--size", paramLabel = "B", defaultValue = "" + ThroughputClient.DEFAULT_MESSAGE_SIZE,
        description = "Bytes per message, line end excluded (default ${DEFAULT-VALUE}).")
    private int size;

    /**
     * Sends the messages and prints the rate.
     *
     * @return the exit code: 0 if all was sent, else 1.
     * @throws InterruptedException if interrupted while waiting.
     */
    @Override
    public Integer call() throws InterruptedException
    {
        if (messages < 1)
        {
            throw new UsageException("--messages must be at least 1: " + messages);
        }
        if (size < 1 || size > 1 << 20)
        {
            throw new UsageException("--size must be between 1 and 1048576: " + size);
        }
        return client.connect((reactor, running) ->
        {
            // The write buffer must hold at least one line; a few make the batches worth it.
            final ThroughputClient sender = new ThroughputClient(reactor, client.host(), client.port(), messages,
                size, client.config().writeBufferSize(Math.max(64 * 1024, 4 * (size + 1))), client.out());
            running.finishWhen(sender.outcome(), sender::completed,
                () -> "stopped before all was sent (" + sender.outcome().closeReason() + ")");
            sender.open();
        });
    }
}
