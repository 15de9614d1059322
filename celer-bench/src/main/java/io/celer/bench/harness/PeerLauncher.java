package io.celer.bench.harness;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the command lines of the child processes: pinned, with the same JDK and classpath as the harness (Celer's
 * peers on a native transport on a newer JDK with celer-native's jar, Netty 4.2's peers on {@link Netty42}'s class
 * path).
 */
public final class PeerLauncher
{
    /** Agrona 2 reads jdk.internal.misc.Unsafe: every JVM that runs Celer needs it exported. */
    public static final String ADD_EXPORTS = "java.base/jdk.internal.misc=ALL-UNNAMED";

    /** The JDK's selector boxes each ready file descriptor: a larger Integer cache keeps selection garbage-free. */
    public static final String AUTOBOX_CACHE = "-XX:AutoBoxCacheMax=65536";

    /** What {@code --epsilon} adds to the Celer peer's JVMs. */
    public static final List<String> EPSILON =
        List.of("-XX:+UnlockExperimentalVMOptions", "-XX:+UseEpsilonGC", "-Xmx256m");

    private final CpuPlan cpus;
    private final List<String> jvmOptions;
    private final boolean epsilon;
    private final String classpath;
    private Path cBinary;

    /**
     * A launcher.
     *
     * @param cpus       where the two sides run.
     * @param jvmOptions extra options for every child JVM.
     * @param epsilon    whether Celer's JVMs run without a garbage collector.
     */
    public PeerLauncher(final CpuPlan cpus, final List<String> jvmOptions, final boolean epsilon)
    {
        this.cpus = cpus;
        this.jvmOptions = List.copyOf(jvmOptions);
        this.epsilon = epsilon;
        this.classpath = System.getProperty("java.class.path");
    }

    /**
     * The JVM options a peer's children get on top of the classpath.
     *
     * @param peer the peer.
     * @return the options.
     */
    public List<String> jvmOptions(final Peer peer)
    {
        final List<String> options = new ArrayList<>(List.of("--add-exports", ADD_EXPORTS, AUTOBOX_CACHE));
        if (epsilon && peer.isCeler())
        {
            options.addAll(EPSILON);
        }
        options.addAll(jvmOptions);
        return options;
    }

    /**
     * A Java child.
     *
     * @param peer      whose child.
     * @param mainClass its main class.
     * @param cpu       its CPU, or -1.
     * @param args      its {@code --name=value} arguments.
     * @return the command line.
     */
    public List<String> java(final Peer peer, final String mainClass, final int cpu, final Map<String, Object> args)
    {
        return java(Path.of(System.getProperty("java.home")), peer, mainClass, cpu, args);
    }

    /**
     * A Java child on another JDK than the harness's, for a peer that needs a newer one.
     *
     * @param javaHome  the JDK's home directory.
     * @param peer      whose child.
     * @param mainClass its main class.
     * @param cpu       its CPU, or -1.
     * @param args      its {@code --name=value} arguments.
     * @return the command line.
     */
    public List<String> java(final Path javaHome, final Peer peer, final String mainClass, final int cpu,
        final Map<String, Object> args)
    {
        // A Celer reactor thread pins itself too (ReactorConfig.cpu), inside the JVM's own affinity.
        return command(javaHome, cpus.prefix(cpu), List.of(), peer, mainClass,
            peer.isCeler() && cpus.pinned() ? cpu : -1, args);
    }

    /**
     * A server child on the server's CPUs: with several reactors, {@code --loops=N}, and for Celer pinned while
     * the client has a CPU of its own, {@code --cpus=LIST} so that each reactor pins itself to one.
     *
     * @param javaHome  the JDK's home directory.
     * @param peer      whose server.
     * @param mainClass its main class.
     * @param args      its {@code --name=value} arguments.
     * @return the command line.
     */
    public List<String> server(final Path javaHome, final Peer peer, final String mainClass,
        final Map<String, Object> args)
    {
        if (cpus.servers() == 1)
        {
            return java(javaHome, peer, mainClass, cpus.serverCpu(), args);
        }
        final Map<String, Object> all = new LinkedHashMap<>();
        all.put("loops", cpus.servers());
        // A reactor pinned to a CPU the client floats onto waits for the client's turns while the other CPU idles:
        // where the two share every CPU, Celer's reactors float within the server's CPUs, as event loops do.
        if (peer.isCeler() && cpus.pinned() && cpus.clientCpu() >= 0)
        {
            all.put("cpus", CpuPlan.list(cpus.serverCpus()));
        }
        all.putAll(args);
        return command(javaHome, cpus.serverPrefix(), List.of(), peer, mainClass, -1, all);
    }

    /**
     * A server child on the harness's JDK, as {@link #server(Path, Peer, String, Map)}.
     *
     * @param peer      whose server.
     * @param mainClass its main class.
     * @param args      its {@code --name=value} arguments.
     * @return the command line.
     */
    public List<String> server(final Peer peer, final String mainClass, final Map<String, Object> args)
    {
        return server(Path.of(System.getProperty("java.home")), peer, mainClass, args);
    }

    /**
     * A Java child whose I/O thread has a CPU to itself: the process runs on every other CPU (its application
     * threads, JIT and GC among them), and {@code --cpu=N} tells the peer to pin its I/O thread to N.
     *
     * @param peer      whose child.
     * @param mainClass its main class.
     * @param cpu       its I/O thread's CPU, or -1.
     * @param args      its {@code --name=value} arguments.
     * @return the command line.
     */
    public List<String> javaWithPinnedIoThread(final Peer peer, final String mainClass, final int cpu,
        final Map<String, Object> args)
    {
        final List<String> prefix = cpus.prefixExcept(cpu);
        // The JVM sizes its GC and compiler threads by the CPUs it starts on; the I/O thread's counts too.
        final List<String> sizing = prefix.isEmpty() ? List.of()
            : List.of("-XX:ActiveProcessorCount=" + cpus.allowed().size());
        return command(Path.of(System.getProperty("java.home")), prefix, sizing, peer, mainClass,
            cpus.pinned() ? cpu : -1, args);
    }

    private List<String> command(final Path javaHome, final List<String> prefix, final List<String> sizing,
        final Peer peer, final String mainClass, final int pinTo, final Map<String, Object> args)
    {
        final List<String> command = new ArrayList<>(prefix);
        final boolean epoll = NativeTransport.uses(peer);
        command.add((epoll ? NativeTransport.jdk() : javaHome).resolve("bin").resolve("java").toString());
        command.addAll(sizing);
        command.addAll(jvmOptions(peer));
        if (epoll)
        {
            command.addAll(NativeTransport.jvmOptions(peer));
        }
        command.add("-cp");
        command.add(epoll ? classpath + java.io.File.pathSeparator + NativeTransport.jar()
            : Netty42.uses(peer) ? Netty42.classpath() : classpath);
        command.add(mainClass);
        // A Celer peer on a native transport learns it from its JVM's flags, and only its mode from an argument.
        final String transport = epoll ? NativeTransport.childTransport(peer) : peer.transport();
        if (transport != null)
        {
            command.add("--transport=" + transport);
        }
        if (pinTo >= 0)
        {
            command.add("--cpu=" + pinTo);
        }
        args.forEach((name, value) -> command.add("--" + name + "=" + value));
        return command;
    }

    /**
     * A C child.
     *
     * @param cpu  its CPU, or -1.
     * @param args the C program's positional arguments.
     * @return the command line.
     */
    public List<String> c(final int cpu, final Object... args)
    {
        if (cBinary == null)
        {
            cBinary = CPeerBinary.build();
        }
        final List<String> command = new ArrayList<>(cpus.prefix(cpu));
        command.add(cBinary.toString());
        for (final Object arg : args)
        {
            command.add(String.valueOf(arg));
        }
        return command;
    }

    /**
     * The JVM options of a child that is not Celer's, as the run's header shows them.
     *
     * @return the options.
     */
    public List<String> jvmOptions()
    {
        final List<String> options = new ArrayList<>(List.of("--add-exports", ADD_EXPORTS, AUTOBOX_CACHE));
        options.addAll(jvmOptions);
        return options;
    }

    /** @return the options {@code --jvm-opts} added to every child JVM. */
    public List<String> extraJvmOptions()
    {
        return jvmOptions;
    }

    /**
     * The options {@code --jvm-opts} and {@code --epsilon} added, for a report.
     *
     * @return such as {@code none} or {@code -Xmx1g; Celer under Epsilon GC}.
     */
    public String describeExtraOptions()
    {
        return (jvmOptions.isEmpty() ? "none" : String.join(" ", jvmOptions))
            + (epsilon ? "; Celer under Epsilon GC" : "");
    }

    /** @return whether Celer's JVMs run under Epsilon. */
    public boolean epsilon()
    {
        return epsilon;
    }

    /**
     * Prints where the sides run and how the JVMs start, before the first round.
     *
     * @param out       the report.
     * @param label     such as {@code Pinning}.
     * @param placement where the sides run.
     */
    public void printSetup(final PrintStream out, final String label, final String placement)
    {
        out.println(label + ": " + placement);
        out.println("JDK: " + Runtimes.jdk() + "; child JVM options: " + jvmOptions());
        out.flush();
    }

    /**
     * Where the sides run.
     *
     * @return the plan.
     */
    public CpuPlan cpus()
    {
        return cpus;
    }
}
