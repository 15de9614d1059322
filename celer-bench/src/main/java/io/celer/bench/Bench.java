package io.celer.bench;

import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import io.celer.bench.batching.BatchingCommand;
import io.celer.bench.conns.ConnsCommand;
import io.celer.bench.http.HttpCommand;
import io.celer.bench.http.PaperCommand;
import io.celer.bench.latency.TcpCommand;
import io.celer.bench.latency.UdpCommand;
import io.celer.bench.queues.QueuesCommand;
import io.celer.bench.http.tfb.JsonCommand;
import io.celer.bench.http.tfb.PlaintextCommand;
import io.celer.bench.throughput.ThroughputCommand;
import io.celer.bench.ticktotrade.TickToTradeCommand;
import io.celer.bench.tlsflood.TlsFloodCommand;
import io.celer.bench.ws.WsCommand;

/**
 * The benchmark launcher: {@code ./celer bench tcp} and {@code ./celer bench udp} for latency,
 * {@code ./celer bench throughput}, {@code ./celer bench batching}, and {@code ./celer bench tick-to-trade} for
 * the tick-to-trade example in and out of the process; {@code ./celer bench queues} for the inter-thread queues;
 * {@code ./celer bench http} for keep-alive HTTP ping-pong and {@code ./celer bench http-paper} for the 2009
 * paper's HTTP test; {@code ./celer bench ws} for the WebSocket feed, {@code ./celer bench conns} for what idle
 * connections cost the HTTP and WebSocket servers; {@code ./celer bench plaintext} and {@code ./celer bench json}
 * for TechEmpower's two simplest tests.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, version = "celer-bench 0.1.0",
    subcommands = {TcpCommand.class, UdpCommand.class, ThroughputCommand.class, BatchingCommand.class,
        TickToTradeCommand.class, QueuesCommand.class,
        HttpCommand.class, PaperCommand.class, WsCommand.class, ConnsCommand.class,
        PlaintextCommand.class, JsonCommand.class, TlsFloodCommand.class},
    description = {
        "Benchmarks Celer against Netty, blocking sockets and C over TCP and UDP on loopback.",
        "Every peer's server and client run in separate processes, pinned to separate CPUs when the machine "
            + "allows. Results go to stdout and to bench-results/ (JSON, Markdown and, for latency, a PNG plot).",
        "queues compares inter-thread queues inside one JVM under JMH."},
    footer = {"", "Examples:",
        "  ./celer bench tcp --quick",
        "  ./celer bench tcp --peers celer,netty-epoll-busy,c --rounds 5",
        "  ./celer bench tcp --peers celer --epsilon",
        "  ./celer bench tcp --tls --quick",
        "  ./celer bench udp --quick",
        "  ./celer bench throughput --quick",
        "  ./celer bench batching --quick --producers 2",
        "  ./celer bench tick-to-trade --quick",
        "  ./celer bench queues --quick",
        "  ./celer bench http --quick",
        "  ./celer bench http --driver wrk --connections 1,100",
        "  ./celer bench http-paper --quick",
        "  ./celer bench ws --quick",
        "  ./celer bench conns --quick",
        "  ./celer bench plaintext --quick",
        "  ./celer bench tls-flood --flooders 50",
        "  ./celer bench json --quick --driver wrk"})
public final class Bench implements Callable<Integer>
{
    @Spec
    private CommandSpec spec;

    /**
     * Runs the launcher.
     *
     * @param args a subcommand and its options.
     */
    public static void main(final String[] args)
    {
        System.exit(commandLine().execute(args));
    }

    /**
     * The parser, for embedding (tests call it without exiting the JVM).
     *
     * @return a fresh command line.
     */
    public static CommandLine commandLine()
    {
        return new CommandLine(new Bench()).setCaseInsensitiveEnumValuesAllowed(true);
    }

    /**
     * Without a subcommand: the usage, and a usage-error status.
     *
     * @return 2.
     */
    @Override
    public Integer call()
    {
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }
}
