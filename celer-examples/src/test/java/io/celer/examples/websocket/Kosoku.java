package io.celer.examples.websocket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Assumptions;

/**
 * Runs the {@code kosoku} Autobahn conformance tool and reads its report: a case passes when its behaviour is
 * OK, NON-STRICT or INFORMATIONAL and its close OK or INFORMATIONAL (kosoku gives the last two only to cases
 * whose expectations allow them).
 */
final class Kosoku
{
    private static final Set<String> PASSING = Set.of("OK", "NON-STRICT", "INFORMATIONAL");
    private static final Set<String> PASSING_CLOSE = Set.of("OK", "INFORMATIONAL");
    // index.json is written with sorted keys: behavior, then behaviorClose, first in each case's entry.
    private static final Pattern CASE = Pattern.compile(
        "\"(\\d+(?:\\.\\d+)+)\":\\s*\\{\\s*\"behavior\":\\s*\"([^\"]+)\",\\s*\"behaviorClose\":\\s*\"([^\"]+)\"");

    private final Path outDir;
    private final Path log;
    private Process process;

    Kosoku(final Path workDir)
    {
        this.outDir = workDir.resolve("report");
        this.log = workDir.resolve("kosoku.log");
    }

    /** Skips the calling test, saying how to get kosoku, when it is not installed. */
    static void assumeInstalled()
    {
        boolean installed;
        try
        {
            final Process help = new ProcessBuilder("kosoku", "--help").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            installed = help.waitFor(60, TimeUnit.SECONDS) && help.exitValue() == 0;
        }
        catch (final IOException ex)
        {
            installed = false;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            installed = false;
        }
        Assumptions.assumeTrue(installed, "kosoku is not installed (pip install kosoku; ./celer test does it)");
    }

    /** Starts kosoku with these arguments after the mode and address. */
    void start(final String mode, final String address, final List<String> cases, final String... more)
        throws IOException
    {
        final List<String> command = new ArrayList<>(List.of("kosoku", "-m", mode, address, "-o", outDir.toString()));
        for (final String pattern : cases)
        {
            command.add("-i");
            command.add(pattern);
        }
        command.addAll(List.of(more));
        process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    /** Waits for kosoku to end, killing it past the bound. */
    void await(final Duration bound) throws InterruptedException, IOException
    {
        if (!process.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS))
        {
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            fail("kosoku did not finish within " + bound + "; its log ends:\n" + tail(40));
        }
    }

    /** Kills kosoku if it still runs. */
    void stop()
    {
        if (process != null && process.isAlive())
        {
            process.destroyForcibly();
        }
    }

    /** The last lines kosoku printed. */
    String tail(final int lines) throws IOException
    {
        if (!Files.exists(log))
        {
            return "";
        }
        final List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
        return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    }

    /**
     * Reads the report, prints a summary and asserts that every case passed.
     *
     * @param title        what ran, for the summary.
     * @param minimumCases fewer cases than this means the run did not happen as meant.
     * @return the counts per behaviour.
     */
    Map<String, Integer> assertAllPassed(final String title, final int minimumCases) throws IOException
    {
        final Path index = outDir.resolve("index.json");
        assertThat(index).as("kosoku's report; its log ends:\n" + tail(20)).exists();
        final Matcher matcher = CASE.matcher(Files.readString(index, StandardCharsets.UTF_8));
        final Map<String, Integer> counts = new TreeMap<>();
        final List<String> failed = new ArrayList<>();
        int total = 0;
        while (matcher.find())
        {
            total++;
            counts.merge(matcher.group(2) + "/" + matcher.group(3), 1, Integer::sum);
            if (!PASSING.contains(matcher.group(2)) || !PASSING_CLOSE.contains(matcher.group(3)))
            {
                failed.add(matcher.group(1) + " " + matcher.group(2) + "/" + matcher.group(3));
            }
        }
        System.out.println("kosoku " + title + ": " + total + " cases, behaviour/close: " + counts);
        System.out.println(tail(3));
        assertThat(total).as("cases in the report").isGreaterThanOrEqualTo(minimumCases);
        assertThat(failed).as("failed cases; kosoku's log ends:\n" + tail(20)).isEmpty();
        return counts;
    }
}
