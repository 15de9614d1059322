package io.celer.examples.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A file of back-ends, one {@code HOST:PORT} a line ({@code #} starts a comment), watched by a thread of its own:
 * when its content changes, the back-ends added to it are added to the demo and those taken out removed, through
 * the demo's thread-safe calls. Once changed, the file is the whole list. A read with a malformed line changes
 * nothing and says which line; one that lists no back-end changes nothing either (a file being rewritten).
 */
public final class BackendsFile implements AutoCloseable
{
    /** How often the file is read, by default. */
    public static final long DEFAULT_PERIOD_MILLIS = 500;

    /** What the demo does with a change; called on the watching thread. */
    public interface Changes
    {
        /**
         * A back-end added to the file.
         *
         * @param hostPort {@code HOST:PORT}, as written.
         */
        void add(String hostPort);

        /**
         * A back-end taken out of the file.
         *
         * @param hostPort {@code HOST:PORT}, as written.
         */
        void remove(String hostPort);
    }

    private final Path file;
    private final Changes changes;
    private final PrintStream err;
    private final Set<String> applied;
    private final ScheduledExecutorService watcher;
    private String lastContent;

    private BackendsFile(final Path file, final List<String> initial, final Changes changes, final PrintStream err)
    {
        this.file = file;
        this.changes = changes;
        this.err = err;
        this.applied = new LinkedHashSet<>(initial);
        this.watcher = Executors.newSingleThreadScheduledExecutor(task ->
        {
            final Thread thread = new Thread(task, "backends-file");
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * The back-ends a file lists now; for the demo's first list.
     *
     * @param file the file.
     * @return each {@code HOST:PORT}, in file order.
     * @throws UsageException if it cannot be read or a line is malformed.
     */
    public static List<String> read(final Path file)
    {
        try
        {
            return parse(Files.readString(file));
        }
        catch (final IOException ex)
        {
            throw new UsageException("cannot read " + file + ": " + ex);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new UsageException(file + ": " + ex.getMessage());
        }
    }

    /**
     * Starts watching a file.
     *
     * @param file         the file.
     * @param initial      the back-ends the demo started with.
     * @param periodMillis how often to read it.
     * @param changes      what to do with a change.
     * @param err          where to say what changed or what is wrong.
     * @return the watcher, to close when the demo stops.
     */
    public static BackendsFile watch(
        final Path file, final List<String> initial, final long periodMillis, final Changes changes,
        final PrintStream err)
    {
        final BackendsFile watched = new BackendsFile(file, initial, changes, err);
        watched.lastContent = watched.content();
        watched.watcher.scheduleWithFixedDelay(watched::check, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
        return watched;
    }

    /** Stops watching. */
    @Override
    public void close()
    {
        watcher.shutdownNow();
    }

    private void check()
    {
        final String content = content();
        if (content == null || content.equals(lastContent))
        {
            return;
        }
        lastContent = content;
        final List<String> wanted;
        try
        {
            wanted = parse(content);
        }
        catch (final IllegalArgumentException ex)
        {
            err.println(file + ": " + ex.getMessage() + "; back-ends unchanged");
            return;
        }
        if (wanted.isEmpty())
        {
            // Most likely caught between an editor's truncate and its write; a front needs a back-end anyway.
            lastContent = null;
            return;
        }
        // Added first: a back-end swapped for another leaves no moment with none.
        for (final String hostPort : wanted)
        {
            if (applied.add(hostPort))
            {
                err.println("back-end " + hostPort + " added");
                changes.add(hostPort);
            }
        }
        for (final String hostPort : new ArrayList<>(applied))
        {
            if (!wanted.contains(hostPort))
            {
                applied.remove(hostPort);
                err.println("back-end " + hostPort + " removed");
                changes.remove(hostPort);
            }
        }
    }

    private String content()
    {
        try
        {
            return Files.readString(file);
        }
        catch (final NoSuchFileException ex)
        {
            return null; // being replaced, or not there yet: the back-ends stay as they are
        }
        catch (final IOException ex)
        {
            err.println("cannot read " + file + ": " + ex);
            return null;
        }
    }

    private static List<String> parse(final String content)
    {
        final List<String> hosts = new ArrayList<>();
        final HostPortConverter converter = new HostPortConverter();
        final String[] lines = content.split("\n", -1);
        for (int i = 0; i < lines.length; i++)
        {
            final int hash = lines[i].indexOf('#');
            final String line = (hash >= 0 ? lines[i].substring(0, hash) : lines[i]).trim();
            if (line.isEmpty())
            {
                continue;
            }
            try
            {
                converter.convert(line);
            }
            catch (final RuntimeException ex)
            {
                throw new IllegalArgumentException("line " + (i + 1) + ": " + ex.getMessage(), ex);
            }
            if (!hosts.contains(line))
            {
                hosts.add(line);
            }
        }
        return hosts;
    }
}
