package io.celer.examples.support;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import io.celer.examples.cli.Running;

/**
 * Runs demos through their launcher as the command line would, printing into buffers the test reads; a
 * JUnit extension ({@code @RegisterExtension}) that stops every demo still running after each test.
 */
public final class DemoRuns implements AfterEachCallback
{
    /**
     * The launcher's entry point: {@code Demo::execute}.
     */
    @FunctionalInterface
    public interface Launch
    {
        /**
         * Runs a command line.
         *
         * @param out     where the demo prints.
         * @param err     where errors go.
         * @param onStart told once the demo runs.
         * @param args    the command line.
         * @return the exit code.
         */
        int execute(PrintStream out, PrintStream err, Consumer<Running> onStart, String... args);
    }

    private final Launch launch;
    private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
    private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);
    // Each running demo blocks a thread until stopped: the common pool may have one thread only.
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final Map<Running, CompletableFuture<Integer>> started = new ConcurrentHashMap<>();

    /**
     * Runs demos through a launcher.
     *
     * @param launch the launcher's entry point.
     */
    public DemoRuns(final Launch launch)
    {
        this.launch = launch;
    }

    /**
     * Runs a command line to its end, on this thread: a client, the help, a mistake.
     *
     * @param args the command line.
     * @return the exit code.
     */
    public int run(final String... args)
    {
        return launch.execute(out, err, running -> { }, args);
    }

    /**
     * Runs a command line that must end before anything starts: the help or a mistake.
     *
     * @param args the command line.
     * @return the exit code.
     */
    public int runWithoutStarting(final String... args)
    {
        return launch.execute(out, err, running ->
        {
            running.stop();
            throw new AssertionError("the demo should not have started: " + String.join(" ", args));
        }, args);
    }

    /**
     * Starts a demo on another thread and waits until it runs.
     *
     * @param args the command line.
     * @return the running demo.
     * @throws Exception if it did not start within a minute, with what it printed on the error stream.
     */
    public Running start(final String... args) throws Exception
    {
        final CompletableFuture<Running> running = new CompletableFuture<>();
        final CompletableFuture<Integer> exit =
            CompletableFuture.supplyAsync(() -> launch.execute(out, err, running::complete, args), threads);
        try
        {
            // A bound for a hung start only: a loaded machine may take seconds to load and compile a demo.
            final Running demo = running.get(60, TimeUnit.SECONDS);
            started.put(demo, exit);
            return demo;
        }
        catch (final TimeoutException ex)
        {
            throw new AssertionError("did not start, exit " + exit.getNow(null) + ": " + err(), ex);
        }
    }

    /**
     * The reactor thread of a running demo, {@code celer-demo-NAME}.
     *
     * @param name the demo's name.
     * @return the thread.
     * @throws AssertionError if no such thread runs.
     */
    public static Thread reactorThread(final String name)
    {
        final String threadName = "celer-demo-" + name;
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals(threadName)).findFirst()
            .orElseThrow(() -> new AssertionError("no thread " + threadName));
    }

    /**
     * Stops a demo and waits for its exit code.
     *
     * @param demo a demo from {@link #start}.
     * @return its exit code.
     * @throws Exception if it did not end within 30 s.
     */
    public int stop(final Running demo) throws Exception
    {
        demo.stop();
        return started.remove(demo).get(30, TimeUnit.SECONDS);
    }

    /**
     * Whether a started demo is still in its run, not returned yet.
     *
     * @param demo a demo from {@link #start}.
     * @return true while it runs.
     */
    public boolean isRunning(final Running demo)
    {
        return !started.get(demo).isDone();
    }

    /**
     * What the demos printed so far.
     *
     * @return the text.
     */
    public String out()
    {
        return outBytes.toString(StandardCharsets.UTF_8);
    }

    /**
     * What the demos printed on the error stream so far.
     *
     * @return the text.
     */
    public String err()
    {
        return errBytes.toString(StandardCharsets.UTF_8);
    }

    /**
     * Forgets what was printed so far.
     */
    public void clear()
    {
        outBytes.reset();
        errBytes.reset();
    }

    @Override
    public void afterEach(final ExtensionContext context)
    {
        started.keySet().forEach(Running::stop);
        threads.shutdownNow();
    }
}
