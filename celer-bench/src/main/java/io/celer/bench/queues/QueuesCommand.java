package io.celer.bench.queues;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import io.celer.bench.harness.JvmOptions;
import io.celer.bench.harness.OutputDirectory;
import io.celer.bench.harness.UsageErrors;

/**
 * {@code bench queues}: Celer's carrier queues against Agrona, JCTools and the Disruptor, in one process per
 * benchmark under JMH.
 */
@Command(name = "queues", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "Inter-thread queues under JMH: Celer's CarrierQueue and CarrierMux against Agrona's one-to-one and "
            + "many-to-one queues, JCTools' SpscArrayQueue and MpscArrayQueue and the LMAX Disruptor's RingBuffer.",
        "Kinds: one-to-one and many-to-one (2 producers) in messages per second, round-trip (ping-pong through "
            + "two one-to-one queues) in ns, and reactor-round-trip and reactor-callback-round-trip (ping-pong "
            + "through a busy-spinning Celer reactor, by callAsync or a CallbackQueue) in ns. Agrona and JCTools carry references, so their messages come from "
            + "pre-allocated pools the receiver gives them back to; nobody allocates per message, and the table "
            + "shows the bytes each allocated."})
public final class QueuesCommand implements Callable<Integer>
{
    @Spec
    private CommandSpec spec;

    @Option(names = "--quick", description = "A short run for a demo: one fork of 2 warm-up iterations of 400 ms "
        + "and 3 measured of 200 ms per benchmark, well under a minute in all (the full run: 15 forks of 2 of 500 ms "
        + "and 3 of 1 s, about 15 minutes).")
    private boolean quick;

    @Option(names = "--kinds", paramLabel = "KINDS", description = "Comma-separated kinds to run "
        + "(default: ${DEFAULT-VALUE}).", defaultValue = "one-to-one,many-to-one,round-trip,reactor-round-trip,reactor-callback-round-trip")
    private String kinds;

    @Option(names = "--impls", paramLabel = "IMPLS", description = "Comma-separated implementations to run "
        + "(default: ${DEFAULT-VALUE}).", defaultValue = "celer,agrona,jctools,disruptor")
    private String implementations;

    @Option(names = "--warmup-iterations", paramLabel = "N", description = "JMH warm-up iterations per benchmark "
        + "(default: 2).")
    private Integer warmupIterations;

    @Option(names = "--iterations", paramLabel = "N", description = "JMH measured iterations per benchmark "
        + "(default: 3).")
    private Integer iterations;

    @Option(names = "--iteration-ms", paramLabel = "MS", description = "Length of each measured iteration "
        + "(default: 1000; 200 with --quick).")
    private Integer iterationMillis;

    @Option(names = "--warmup-ms", paramLabel = "MS", description = "Length of each warm-up iteration "
        + "(default: 500; 400 with --quick).")
    private Integer warmupMillis;

    @Option(names = "--forks", paramLabel = "F", description = "JVMs per benchmark, run in turns: each round runs every "
        + "benchmark once, so that each implementation's forks meet the same machine (default: 15; 1 with --quick). "
        + "Many short forks rather than a few long ones: on a VM whose cores the host moves, one fork measures one "
        + "placement, and a median over many is what one unlucky placement cannot decide.")
    private Integer forks;

    @Mixin
    private JvmOptions jvmOptions;

    @Mixin
    private OutputDirectory out;

    @Override
    public Integer call()
    {
        final QueuesRun.Settings settings = UsageErrors.settings(spec, () ->
        {
            final int warm = warmupIterations != null ? warmupIterations : 2;
            final int measured = iterations != null ? iterations : 3;
            final int millis = iterationMillis != null ? iterationMillis : quick ? 200 : 1000;
            // Warm-up long enough for the JIT to finish compiling on a busy machine, also when quick.
            final int warmMillis = warmupMillis != null ? warmupMillis : quick ? 400 : 500;
            final int forkCount = forks != null ? forks : quick ? 1 : 15;
            if (warm < 0 || measured < 1 || millis < 10 || warmMillis < 10 || forkCount < 1)
            {
                throw new IllegalArgumentException("--iterations and --forks must be positive, --warmup-iterations "
                    + "not negative, --iteration-ms and --warmup-ms at least 10");
            }
            return new QueuesRun.Settings(QueueCase.select(kinds, implementations), warm, measured, warmMillis,
                millis, forkCount, jvmOptions.list(), out.path());
        });
        return new QueuesRun(settings, System.out, System.err).run();
    }
}
