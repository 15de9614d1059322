package io.celer.examples.cli;

import java.io.PrintStream;
import java.util.function.Consumer;

/**
 * Where a demo prints and whom it tells once it runs; handed to each command's constructor by
 * {@link Launcher}.
 *
 * @param out     where the demo and the help print.
 * @param err     where errors go.
 * @param onStart told of the running demo once it started, on the calling thread, before the command waits;
 *                {@link Running#stop()} ends the wait.
 */
public record DemoContext(PrintStream out, PrintStream err, Consumer<Running> onStart)
{
    /**
     * The process's own streams, with Ctrl-C (a shutdown hook) stopping the running demo.
     *
     * @return the context of a command-line run.
     */
    public static DemoContext system()
    {
        return new DemoContext(System.out, System.err, DemoContext::stopOnShutdown);
    }

    private static void stopOnShutdown(final Running running)
    {
        Runtime.getRuntime().addShutdownHook(new Thread(running::stop, "celer-demo-shutdown"));
    }
}
