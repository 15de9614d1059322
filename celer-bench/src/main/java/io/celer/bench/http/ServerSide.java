package io.celer.bench.http;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.celer.bench.harness.CommandedChild;
import io.celer.bench.harness.CpuPlan;
import io.celer.bench.harness.Jdks;
import io.celer.bench.harness.PeerLauncher;
import io.celer.bench.harness.UnrunnablePeers;

/**
 * Starts the HTTP servers of a run, each alone on the server's CPUs, on the harness's JDK or, for a server that
 * needs a newer one, on a JDK 21+ found in {@code $CELER_JDK21} or under {@code /usr/lib/jvm} (the newest).
 */
final class ServerSide
{
    private final PeerLauncher launcher;
    private final Path newJdk;

    /**
     * The servers' side of a run.
     *
     * @param launcher what starts the children, placed.
     */
    ServerSide(final PeerLauncher launcher)
    {
        this.launcher = launcher;
        this.newJdk = Jdks.atLeast(21);
    }

    /**
     * Why a server cannot run here.
     *
     * @param peer the server.
     * @return the reason, or null when it can.
     */
    String cannotRun(final HttpPeer peer)
    {
        final String noNative = UnrunnablePeers.reason(peer);
        if (noNative != null)
        {
            return peer.id() + " skipped: " + noNative;
        }
        return peer.minimumJdk() > 17 && newJdk == null
            ? peer.id() + " skipped: it needs JDK " + peer.minimumJdk() + "+, and none was found in $CELER_JDK21 "
                + "or under /usr/lib/jvm"
            : null;
    }

    /**
     * The servers that can run here, in order; each of the others is said on {@code out} and added to
     * {@code skipped} with its reason.
     *
     * @param peers   the servers asked for.
     * @param skipped where the reasons go.
     * @param out     where they are said.
     * @return those that can run.
     */
    List<HttpPeer> runnable(final List<HttpPeer> peers, final List<String> skipped, final PrintStream out)
    {
        final List<HttpPeer> runnable = new ArrayList<>();
        for (final HttpPeer peer : peers)
        {
            final String reason = cannotRun(peer);
            if (reason == null)
            {
                runnable.add(peer);
            }
            else
            {
                skipped.add(reason);
                out.println(reason);
            }
        }
        return runnable;
    }

    /**
     * The JDK a server runs on.
     *
     * @param peer the server.
     * @return the JDK's home.
     */
    Path jdk(final HttpPeer peer)
    {
        return peer.minimumJdk() > 17 ? newJdk : Path.of(System.getProperty("java.home"));
    }

    /**
     * Starts a server on an ephemeral port, pinned to the server's CPUs, with its reactors or event loops.
     *
     * @param peer    the server.
     * @param sockets the most connections it will hold at once, for its open-file limit.
     * @return the running child; its port is read with {@link CommandedChild#awaitPort()}.
     */
    CommandedChild start(final HttpPeer peer, final int sockets)
    {
        final Map<String, Object> args = new LinkedHashMap<>();
        args.put("port", 0);
        if (peer.idle() != null)
        {
            args.put("idle", peer.idle().id());
        }
        return CommandedChild.start(peer.id() + " server", FileLimit.withRoomFor(
            launcher.server(jdk(peer), peer, peer.mainClass(), args), sockets));
    }

    /**
     * The server's reactors as a run's header and report say them.
     *
     * @param cpus the run's plan.
     * @return such as {@code 2 server reactors (Celer's reactors, Netty's and Vert.x's event loops)}.
     */
    static String reactors(final CpuPlan cpus)
    {
        return cpus.servers() == 1 ? "1 server reactor (Celer's reactor, Netty's or Vert.x's event loop)"
            : cpus.servers() + " server reactors (Celer's reactors, Netty's and Vert.x's event loops; the other "
                + "servers run their own threads on the same CPUs)";
    }

    /**
     * Where the server runs, for a report's first sentence.
     *
     * @param cpus the run's plan.
     * @return such as {@code one CPU} or {@code 2 CPUs}.
     */
    static String serverCpus(final CpuPlan cpus)
    {
        return cpus.servers() == 1 ? "one CPU alone" : cpus.servers() + " CPUs";
    }

    /**
     * The client's CPU as the JSON has it.
     *
     * @param cpus the run's plan.
     * @return the CPU, or null when not pinned or sharing the server's.
     */
    static Integer clientCpu(final CpuPlan cpus)
    {
        return cpus.pinned() && cpus.clientCpu() >= 0 ? cpus.clientCpu() : null;
    }

    /** @return what starts the children. */
    PeerLauncher launcher()
    {
        return launcher;
    }
}
