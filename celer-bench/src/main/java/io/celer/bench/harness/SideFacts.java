package io.celer.bench.harness;

import java.util.List;


/**
 * What a peer's two processes were, beside its numbers: the fields every two-process benchmark's entry has.
 *
 * @param gcCount              collections while measuring, per side; null for a peer without a JVM.
 * @param allocatedBytesPerMsg bytes allocated per message on each side's I/O thread; null without a JVM.
 * @param pinnedCpus           each side's CPU (the client's I/O thread's where it has one to itself; the server's
 *                             first with several reactors; the client's null where it shares the server's), null
 *                             when not pinned.
 * @param jdk                  the client's JDK, null without a JVM.
 * @param jvmOptions           the peer's JVM options, empty without a JVM.
 */
public record SideFacts(
    Sides<Long> gcCount,
    Sides<Double> allocatedBytesPerMsg,
    Sides<Integer> pinnedCpus,
    String jdk,
    List<String> jvmOptions)
{
    /**
     * The facts of a round.
     *
     * @param launcher what started the processes.
     * @param peer     whose processes.
     * @param stats    what each side reported.
     * @return the facts.
     */
    public static SideFacts of(final PeerLauncher launcher, final Peer peer, final Sides<SideStats> stats)
    {
        final CpuPlan cpus = launcher.cpus();
        final Sides<Integer> pinned = cpus.pinned() ? new Sides<>(cpus.clientCpu() < 0 ? null : cpus.clientCpu(), cpus.serverCpu()) : null;
        if (!peer.isJava())
        {
            return new SideFacts(null, null, pinned, null, List.of());
        }
        return new SideFacts(new Sides<>(stats.client().gcCount(), stats.server().gcCount()),
            new Sides<>(stats.client().allocatedPerMessage(), stats.server().allocatedPerMessage()), pinned,
            stats.client().jdk(), launcher.jvmOptions(peer));
    }

    /**
     * Collections, as {@code client/server}.
     *
     * @return such as {@code 0/0}, or {@code n/a} without a JVM.
     */
    public String gcCell()
    {
        return gcCount == null ? Cells.NOT_AVAILABLE : gcCount.client() + "/" + gcCount.server();
    }

    /**
     * Bytes allocated per message, as {@code client/server}.
     *
     * @return such as {@code 0.00/0.00}, or {@code n/a} without a JVM.
     */
    public String allocCell()
    {
        return allocatedBytesPerMsg == null ? Cells.NOT_AVAILABLE
            : Cells.perMessage(allocatedBytesPerMsg.client()) + "/" + Cells.perMessage(allocatedBytesPerMsg.server());
    }
}
