package io.celer.bench.batching;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import io.celer.bench.harness.CommonOptions;

/**
 * {@code bench batching}: application threads publishing small messages for one TCP connection, flushed once
 * per drained batch or once per message, with Celer and with Netty.
 */
@Command(name = "batching", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "Messages per second into one TCP connection fed by application threads: P producers publish small "
            + "messages (27 bytes, the Reactor processor article's memcached GETQ) into a garbage-free ring; the I/O thread drains it, "
            + "writes each message behind a 4-byte length and flushes once per drained batch, or flushes each "
            + "message. A Celer server in another process counts what arrives.",
        "Variants: celer-batched, celer-per-message, netty-batched, netty-per-message."})
public final class BatchingCommand implements Callable<Integer>
{
    @Option(names = "--producers", paramLabel = "P", description = "Application threads publishing "
        + "(default: ${DEFAULT-VALUE}).", defaultValue = "1")
    private int producers;

    @Option(names = "--messages", paramLabel = "N", description = "Measured messages per run, from all producers "
        + "together (default: 5,000,000; 1,000,000 with --quick).")
    private Integer messages;

    @Option(names = "--warmup", paramLabel = "N", description = "Messages before them, not timed "
        + "(default: 1,000,000; 200,000 with --quick).")
    private Integer warmup;

    @Option(names = "--variants", paramLabel = "VARIANTS", description = "Comma-separated variants to run "
        + "(default: ${DEFAULT-VALUE}).",
        defaultValue = "celer-batched,celer-per-message,netty-batched,netty-per-message")
    private String variants;

    @Option(names = "--stall-server", paramLabel = "MS", description = "To test back-pressure: the server stops "
        + "reading for MS milliseconds after the first message (default: 0). Such runs measure the stall, not the "
        + "clients.", defaultValue = "0")
    private int stallMillis;

    @Option(names = "--socket-buffers", paramLabel = "BYTES", description = "SO_SNDBUF of the client and SO_RCVBUF "
        + "of the server, both libraries (default: ${DEFAULT-VALUE}, what Celer asks by default; the kernel may "
        + "grant another size).", defaultValue = "4194304")
    private int socketBuffers;

    @Mixin
    private CommonOptions common;

    @Override
    public Integer call()
    {
        final BatchingRun.Settings settings = common.settings(() ->
        {
            final int measured = common.pick(messages, 1_000_000, 5_000_000);
            final int warm = common.pick(warmup, 200_000, 1_000_000);
            final int size = common.size(27);
            common.validate(measured, warm, size, 1, 65_536);
            if (producers < 1 || producers > 64)
            {
                throw new IllegalArgumentException("--producers must be 1 to 64: " + producers);
            }
            if (socketBuffers < 1024)
            {
                throw new IllegalArgumentException("--socket-buffers must be at least 1024 bytes: "
                    + socketBuffers);
            }
            if (stallMillis < 0)
            {
                throw new IllegalArgumentException("--stall-server must not be negative");
            }
            return new BatchingRun.Settings(BatchingVariant.parse(variants), producers, warm, measured, size,
                common.rounds(), socketBuffers, stallMillis, common.launcher(), common.outDir());
        });
        return new BatchingRun(settings, System.out, System.err).run();
    }
}
