package io.celer.examples;

import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

import io.celer.examples.cli.DemoContext;
import io.celer.examples.cli.Launcher;
import io.celer.examples.cli.Running;
import io.celer.examples.cli.UsageException;
import io.celer.examples.counter.CounterClientCommand;
import io.celer.examples.fanout.BackendCommand;
import io.celer.examples.fanout.FanoutCommand;
import io.celer.examples.http.HttpHelloCommand;
import io.celer.examples.http.HttpGetCommand;
import io.celer.examples.http.HttpTimeBlockCommand;
import io.celer.examples.queued.QueuedServerCommand;
import io.celer.examples.quote.QuoteBackendCommand;
import io.celer.examples.quote.QuoteFrontCommand;
import io.celer.examples.ticktotrade.TickToTradeCommand;
import io.celer.examples.websocket.WsClientCommand;
import io.celer.examples.websocket.WsEchoCommand;
import io.celer.examples.wsfeed.WsFeedCommand;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * {@code ./celer demo NAME [OPTIONS]}: runs one example in the foreground; lists the examples.
 *
 * <p>Each example has its own picocli subcommand beside it, with its options and help; this command only
 * lists them. To add a demo, write its command beside it and add its class to {@code DEMOS}: that one line
 * registers it. A demo with only the shared options is a static {@code @Command} method taking
 * {@code @Mixin ServerOptions} or {@code @Mixin ClientOptions} from {@code io.celer.examples.cli}, which run
 * it in the foreground ({@link EchoCommand}); one with options of its own is a {@code @Command} class with
 * them as fields and those mixins as fields too ({@link ThroughputClientCommand}).
 * Servers run until the process is killed; Ctrl-C stops the reactor, which closes every connection, and then
 * any worker threads. The clients exit by themselves when their server hangs up or when they are done.
 */
@Command(
    name = "./celer demo",
    description = "Runs one of Celer's examples in the foreground. Servers run until killed (Ctrl-C); " +
        "the clients exit when their server hangs up or when they are done.",
    synopsisSubcommandLabel = "NAME",
    commandListHeading = "%nNames (./celer demo NAME --help for each one's options):%n",
    footer = {"%nTry: ./celer demo echo-line, then in another terminal: telnet localhost 54321"})
public final class Demo implements Callable<Integer>
{
    /** The demos, in the order the list shows them: one line registers a demo. */
    static final List<Class<?>> DEMOS = List.of(
        DiscardCommand.class,
        PrintCommand.class,
        EchoCommand.class,
        EchoLineCommand.class,
        TimeCommand.class,
        TimeClientCommand.class,
        TimeBeatCommand.class,
        ThroughputClientCommand.class,
        QueuedServerCommand.class,
        CounterClientCommand.class,
        BackendCommand.class,
        FanoutCommand.class,
        HttpsHeadersCommand.class,
        HttpHelloCommand.class,
        HttpTimeBlockCommand.class,
        HttpGetCommand.class,
        QuoteBackendCommand.class,
        QuoteFrontCommand.class,
        TickToTradeCommand.class,
        WsEchoCommand.class,
        WsClientCommand.class,
        WsFeedCommand.class);

    @Option(names = {"-h", "--help"}, usageHelp = true, scope = ScopeType.INHERIT,
        description = "Show this help and exit.")
    private boolean help;

    /**
     * Runs a demo and exits with its exit code; Ctrl-C stops it cleanly.
     *
     * @param args {@code NAME [OPTIONS]}, or {@code --help}; see {@code ./celer demo --help}.
     */
    public static void main(final String[] args)
    {
        Launcher.main(new Demo(), DEMOS, args);
    }

    /**
     * Parses the arguments and runs the demo they name until it finishes or is stopped.
     *
     * @param out     where the demo and the help print.
     * @param err     where errors go.
     * @param onStart told of the running demo once it started, on the calling thread, before this waits;
     *                {@link Running#stop()} ends the wait.
     * @param args    the command line after {@code demo}.
     * @return 0 on success, 1 if the demo failed, 2 for bad arguments.
     */
    public static int execute(
        final PrintStream out, final PrintStream err, final Consumer<Running> onStart, final String... args)
    {
        return Launcher.execute(new Demo(), DEMOS, new DemoContext(out, err, onStart), args);
    }

    /**
     * Without a name there is nothing to run.
     *
     * @return never.
     * @throws UsageException always.
     */
    @Override
    public Integer call()
    {
        throw new UsageException("name a demo");
    }
}
