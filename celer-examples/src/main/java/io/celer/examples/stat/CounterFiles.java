package io.celer.examples.stat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import io.celer.counters.CountersReader;

/**
 * Finds counters files: the one a pid or a path names, or every one in the counters directory.
 */
final class CounterFiles
{
    private CounterFiles()
    {
    }

    /**
     * Every counters file in a directory, oldest process first.
     *
     * @param dir the directory.
     * @return the files, none when the directory is missing.
     * @throws IOException when it cannot be listed.
     */
    static List<Path> list(final Path dir) throws IOException
    {
        if (!Files.isDirectory(dir))
        {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir))
        {
            final List<Path> found = new ArrayList<>();
            files.filter(f -> f.getFileName().toString().endsWith(".counters")).sorted().forEach(found::add);
            return found;
        }
    }

    /**
     * The file an argument names: a pid (its file in the directory) or a path.
     *
     * @param dir      the counters directory.
     * @param argument a pid or a path.
     * @return the file.
     * @throws IOException when there is none.
     */
    static Path resolve(final Path dir, final String argument) throws IOException
    {
        final Path file = argument.matches("[0-9]+") ? dir.resolve(argument + ".counters") : Path.of(argument);
        if (!Files.isRegularFile(file))
        {
            throw new IOException("no counters file " + file + (argument.matches("[0-9]+") ?
                " (is process " + argument + " a Celer process with counters on, and -Dceler.counters.dir the same?)" :
                ""));
        }
        return file;
    }

    /**
     * One line about a file: its pid, whether its process runs, how many counters.
     *
     * @param file a counters file.
     * @return the line.
     */
    static String describe(final Path file)
    {
        try
        {
            final CountersReader reader = CountersReader.open(file);
            return file + "  pid " + reader.pid() + "  " +
                (reader.isWriterAlive() ? "running" : "STALE: process gone, counters frozen") + "  " +
                reader.snapshot().size() + " counters";
        }
        catch (final IOException ex)
        {
            return file + "  unreadable: " + ex.getMessage();
        }
    }
}
