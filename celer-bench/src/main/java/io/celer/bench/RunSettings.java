package io.celer.bench;

import java.nio.file.Path;
import java.util.List;

/**
 * What a benchmark run was asked to do.
 *
 * @param peers      the peers, in the order of the first round.
 * @param warmup     warm-up messages per run (latency only).
 * @param messages   measured messages per run.
 * @param size       message size in bytes.
 * @param rounds     runs per peer.
 * @param jvmOptions extra options for every child JVM.
 * @param epsilon    whether Celer's JVMs run under Epsilon.
 * @param pin        whether to pin the two sides when the machine allows.
 * @param outDir     where result files go.
 */
record RunSettings(List<Peer> peers, int warmup, int messages, int size, int rounds, List<String> jvmOptions,
    boolean epsilon, boolean pin, Path outDir)
{
}
