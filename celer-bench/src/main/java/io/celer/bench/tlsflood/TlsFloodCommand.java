package io.celer.bench.tlsflood;

import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import io.celer.bench.harness.BenchCertificates;
import io.celer.bench.harness.BenchException;
import io.celer.bench.harness.CpuPlan;
import io.celer.bench.harness.Runtimes;
import io.celer.bench.peer.server.PinnedThreads;
import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorConfig;
import io.celer.tcp.Connection;
import io.celer.tcp.Handler;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;
import io.celer.tcp.TransportFactory;
import io.celer.tls.TlsConfig;

/**
 * {@code bench tls-flood}: one reactor serves a plain keep-alive echo client and two TLS echo servers with the
 * handshake bound ({@link TlsConfig#maxConcurrentHandshakes}), one with TLS's defaults (the handshakes' work on
 * the shared handshake executor, {@link TlsConfig#handshakeExecutor}) and one that runs that work on the reactor
 * thread. A child process, pinned to another CPU than this one where taskset works, floods one TLS server at a
 * time with full handshakes from many threads while the plain client measures its round trips; so the flooders
 * take no CPU from the reactor, and what the plain client sees is this process's own work on the handshakes.
 */
@Command(name = "tls-flood", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Measures a plain keep-alive client's round trips on a reactor quiet, then while a child process " +
        "on another CPU floods a TLS server on the same reactor with full handshakes, their work on the handshake " +
        "executor (the default) and on the reactor thread. Prints a Markdown table."},
    footer = {"", "Examples:", "  ./celer bench tls-flood", "  ./celer bench tls-flood --quick",
        "  ./celer bench tls-flood --flooders 50 --samples 5000"})
public final class TlsFloodCommand implements Callable<Integer>
{
    private static final int PING = 16;
    private static final String ON_REACTOR = "flood, work on the reactor";

    @Option(names = "--flooders", paramLabel = "N", defaultValue = "200",
        description = "Flooding threads in the child process, each shaking hands over and over (default " +
            "${DEFAULT-VALUE}).")
    int flooders;

    @Option(names = "--samples", paramLabel = "N", defaultValue = "20000",
        description = "Round trips of the plain client measured per phase (default ${DEFAULT-VALUE}).")
    int samples;

    @Option(names = "--bound", paramLabel = "N", defaultValue = "64",
        description = "maxConcurrentHandshakes of both TLS servers (default ${DEFAULT-VALUE}, the default of " +
            "TlsConfig).")
    int bound;

    @Option(names = "--settle-millis", paramLabel = "MS", defaultValue = "2000",
        description = "Flooding before measuring, for the flood to reach its pace (default ${DEFAULT-VALUE}).")
    long settleMillis;

    @Option(names = "--warmup-seconds", paramLabel = "S", defaultValue = "20",
        description = "An unmeasured flood first, so that the TLS code on both sides is compiled before the " +
            "measured phases (default ${DEFAULT-VALUE}).")
    int warmupSeconds;

    @Option(names = "--handshake-cpu", paramLabel = "CPU", defaultValue = "-1",
        description = "Runs the first TLS server's handshake work on one thread pinned to this CPU, as a machine " +
            "with its reactor pinned would, rather than on the shared handshake executor, whose threads start " +
            "on this process's CPU (default: the shared executor).")
    int handshakeCpu = -1;

    @Option(names = "--quick", description = "A short run for a demo: 40 flooders, 2,000 round trips a phase, " +
        "0.5 s to settle, 2 s of warm-up (under a minute in all).")
    boolean quick;

    private PrintStream out = System.out;
    private ExecutorService pinnedExecutor;

    /**
     * One phase's figures.
     *
     * @param reactorCpuNanos the reactor thread's CPU time while the plain client was measured.
     * @param measuredNanos   the time the plain client was measured.
     */
    record Phase(String name, long[] sortedNanos, long handshakes, long failures, double seconds, long waited,
        long reactorCpuNanos, long measuredNanos)
    {
        Phase named(final String phaseName)
        {
            return new Phase(phaseName, sortedNanos, handshakes, failures, seconds, waited, reactorCpuNanos,
                measuredNanos);
        }

        /** The share of one CPU the reactor thread used, in percent. */
        double reactorCpuPercent()
        {
            return 100.0 * reactorCpuNanos / measuredNanos;
        }

        long percentileMicros(final double p)
        {
            final int index = (int)Math.min(sortedNanos.length - 1, Math.ceil(p * sortedNanos.length) - 1);
            return sortedNanos[Math.max(0, index)] / 1_000;
        }
    }

    /**
     * Where the table goes; standard output unless a test says otherwise.
     *
     * @param stream the stream.
     * @return this.
     */
    TlsFloodCommand out(final PrintStream stream)
    {
        this.out = stream;
        return this;
    }

    @Override
    public Integer call() throws Exception
    {
        final List<Phase> phases = run();
        out.println(table(phases));
        return 0;
    }

    /**
     * Runs the phases: quiet, flooded with TLS's defaults, with the handshakes' work on the reactor twice, with the
     * defaults again, quiet again.
     *
     * @return their figures.
     * @throws Exception when a part fails.
     */
    List<Phase> run() throws Exception
    {
        if (quick)
        {
            flooders = 40;
            samples = 2_000;
            settleMillis = 500;
            warmupSeconds = 2;
        }
        final String affinity = CpuPlan.available() >= 2 ? taskset("-c", "-p") : null;
        final boolean pinned = affinity != null && taskset("-a", "-p", "-c", "1") != null;
        out.println(pinned ? "this process (reactor, plain client) on CPU 1, the flooding process on CPU 0" :
            "not pinned (taskset missing or one CPU): the flooders share the CPUs with the reactor");
        final Path dir = Runtimes.tempDirectory();
        final Reactor reactor = new Reactor(new ReactorConfig().name("tls-flood").waitInSelector(true)).start();
        try
        {
            final BenchCertificates certificates = BenchCertificates.make(dir);
            final TcpServer plain = echoServer(reactor, TransportFactory.plain());
            final TlsConfig defaultsTls = tls(certificates).maxConcurrentHandshakes(bound);
            final String defaultsName;
            if (handshakeCpu >= 0)
            {
                pinnedExecutor = Executors.newSingleThreadExecutor(task ->
                {
                    final Thread thread = new Thread(() ->
                    {
                        PinnedThreads.pin(handshakeCpu);
                        task.run();
                    }, "tls-flood-handshakes");
                    thread.setDaemon(true);
                    return thread;
                });
                defaultsTls.handshakeExecutor(pinnedExecutor);
                defaultsName = "flood, handshake work on CPU " + handshakeCpu;
            }
            else
            {
                defaultsName = "flood, defaults";
            }
            final TcpServer defaults = echoServer(reactor, defaultsTls);
            final TcpServer onReactor = echoServer(reactor, tls(certificates).maxConcurrentHandshakes(bound)
                .handshakeExecutor(null));
            final List<Phase> phases = new ArrayList<>();
            try (Socket client = new Socket("127.0.0.1", plain.port()))
            {
                client.setTcpNoDelay(true);
                client.setSoTimeout(60_000);
                roundTrips(client, Math.max(1_000, samples / 2)); // warm-up
                flood(client, defaults, certificates, pinned, warmupSeconds * 500L, 0, reactor);
                flood(client, onReactor, certificates, pinned, warmupSeconds * 500L, 0, reactor);
                phases.add(quiet("quiet", client, reactor));
                // In the order A B B A, so that a drift of the machine's load weighs on both alike.
                phases.add(flooded(defaultsName, client, defaults, certificates, pinned, reactor));
                phases.add(flooded(ON_REACTOR, client, onReactor, certificates, pinned, reactor));
                phases.add(flooded(ON_REACTOR, client, onReactor, certificates, pinned, reactor));
                phases.add(flooded(defaultsName, client, defaults, certificates, pinned, reactor));
                phases.add(quiet("quiet again", client, reactor));
            }
            return phases;
        }
        finally
        {
            reactor.close();
            if (pinnedExecutor != null)
            {
                pinnedExecutor.shutdownNow();
            }
            Runtimes.deleteRecursively(dir);
            if (pinned)
            {
                // Back to the CPUs it had: the process may go on with other work (a test suite's, say).
                taskset("-a", "-p", "-c", affinity.substring(affinity.lastIndexOf(':') + 1).strip());
            }
        }
    }

    private Phase quiet(final String name, final Socket client, final Reactor reactor) throws IOException
    {
        final long cpu = cpuNanos(reactor);
        final long start = System.nanoTime();
        final long[] rtt = roundTrips(client, samples);
        return new Phase(name, rtt, 0, 0, 0, 0, cpuNanos(reactor) - cpu, System.nanoTime() - start);
    }

    private Phase flooded(final String name, final Socket client, final TcpServer target,
        final BenchCertificates certificates, final boolean pinned, final Reactor reactor) throws Exception
    {
        return flood(client, target, certificates, pinned, settleMillis, samples, reactor).named(name);
    }

    /** The reactor thread's CPU time so far. */
    private static long cpuNanos(final Reactor reactor)
    {
        return ManagementFactory.getThreadMXBean().getThreadCpuTime(reactor.thread().getId());
    }

    /** Floods the target for {@code settle} ms, then while the client makes {@code count} round trips. */
    private Phase flood(final Socket client, final TcpServer target, final BenchCertificates certificates,
        final boolean pinned, final long settle, final int count, final Reactor reactor) throws Exception
    {
        final List<String> command = new ArrayList<>();
        if (pinned)
        {
            command.addAll(List.of("taskset", "-c", "0"));
        }
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
            System.getProperty("java.class.path"), TlsFlooder.class.getName(), "127.0.0.1",
            Integer.toString(target.port()), Integer.toString(flooders), certificates.trustStore().toString(),
            certificates.password()));
        final Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        try
        {
            final BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8));
            await(lines, "flooding");
            final long floodStart = System.nanoTime();
            final long waitedBefore = target.waitedHandshakes();
            Thread.sleep(settle);
            final long cpu = cpuNanos(reactor);
            final long start = System.nanoTime();
            final long[] rtt = roundTrips(client, count);
            final long measured = System.nanoTime() - start;
            final long reactorCpu = cpuNanos(reactor) - cpu;
            try (Writer stop = new OutputStreamWriter(child.getOutputStream(), StandardCharsets.UTF_8))
            {
                stop.write("stop\n");
            }
            final String[] done = await(lines, "done ").split(" ");
            return new Phase("flood", rtt, Long.parseLong(done[1]), Long.parseLong(done[2]),
                (System.nanoTime() - floodStart) / 1e9, target.waitedHandshakes() - waitedBefore, reactorCpu,
                Math.max(1, measured));
        }
        finally
        {
            child.destroy();
            if (!child.waitFor(10, TimeUnit.SECONDS))
            {
                child.destroyForcibly();
            }
        }
    }

    private static String await(final BufferedReader lines, final String prefix) throws IOException
    {
        String line;
        while ((line = lines.readLine()) != null)
        {
            if (line.startsWith(prefix))
            {
                return line;
            }
        }
        throw new BenchException("the flooding process ended before '" + prefix.strip() + "'");
    }

    /** Round trips of {@link #PING} bytes, in nanoseconds, sorted. */
    private static long[] roundTrips(final Socket client, final int count) throws IOException
    {
        final byte[] ping = new byte[PING];
        final OutputStream out = client.getOutputStream();
        final DataInputStream in = new DataInputStream(client.getInputStream());
        final long[] rtt = new long[count];
        for (int i = 0; i < count; i++)
        {
            final long start = System.nanoTime();
            out.write(ping);
            in.readFully(ping);
            rtt[i] = System.nanoTime() - start;
        }
        Arrays.sort(rtt);
        return rtt;
    }

    private static TlsConfig tls(final BenchCertificates certificates)
    {
        return new TlsConfig().keyStore(certificates.keyStore(), certificates.password());
    }

    private static TcpServer echoServer(final Reactor reactor, final TransportFactory transport)
    {
        return new TcpServer(reactor, 0, new TcpConfig().bindAddress("127.0.0.1").transport(transport),
            new Handler()
            {
                @Override
                public void message(final Connection connection, final ByteBuffer message)
                {
                    connection.send(message);
                }
            }).open();
    }

    /**
     * Runs taskset on this process: {@code -c -p} reads its CPU list, {@code -a -p -c LIST} moves every thread of
     * it (so that threads started later stay there too).
     *
     * @return taskset's output, or null when it failed or is missing.
     */
    private static String taskset(final String... args)
    {
        final List<String> command = new ArrayList<>(List.of("taskset"));
        command.addAll(List.of(args));
        command.add(Long.toString(ProcessHandle.current().pid()));
        try
        {
            final Process taskset = new ProcessBuilder(command).redirectErrorStream(true).start();
            final String output = new String(taskset.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return taskset.waitFor(10, TimeUnit.SECONDS) && taskset.exitValue() == 0 ? output.strip() : null;
        }
        catch (final IOException ex)
        {
            return null;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * The phases as a Markdown table, dated.
     *
     * @param phases the figures.
     * @return the table.
     */
    String table(final List<Phase> phases)
    {
        final StringBuilder table = new StringBuilder();
        table.append("bench tls-flood, ").append(LocalDate.now(ZoneOffset.UTC)).append(", ").append(flooders)
            .append(" flooding threads, ").append(samples).append(" round trips of ").append(PING)
            .append(" bytes a phase, maxConcurrentHandshakes ").append(bound).append("\n\n");
        table.append("| phase | plain p50 (us) | p99 (us) | p99.9 (us) | max (us) | reactor CPU (%) | " +
            "handshakes/s | failed | waited for a slot |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
        for (final Phase phase : phases)
        {
            table.append(String.format("| %s | %d | %d | %d | %d | %.0f | %s | %s | %s |%n", phase.name(),
                phase.percentileMicros(0.5), phase.percentileMicros(0.99), phase.percentileMicros(0.999),
                phase.sortedNanos()[phase.sortedNanos().length - 1] / 1_000, phase.reactorCpuPercent(),
                phase.handshakes() == 0 ? "-" : String.format("%.0f", phase.handshakes() / phase.seconds()),
                phase.handshakes() == 0 ? "-" : Long.toString(phase.failures()),
                phase.handshakes() == 0 ? "-" : Long.toString(phase.waited())));
        }
        return table.toString();
    }
}
