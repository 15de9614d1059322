package io.celer.jcstress;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipFile;

import org.junit.jupiter.api.Test;

/**
 * The build's gate on the stress tests: runs the shaded jcstress jar in a child JVM in its sanity mode (one
 * short iteration per test, one JVM configuration, no split compilation) and fails on any failed or erroneous
 * result, or on a test that did not run. It proves the tests and their forbidden outcomes hold at all; the
 * real hunt for reorderings is {@code ./celer stress}.
 */
class QuickStressRunTest
{
    private static final Pattern SUMMARY = Pattern.compile(
        "\\(Results: (\\d+) planned; (\\d+) passed, (\\d+) failed, (\\d+) soft errs, (\\d+) hard errs\\)");
    private static final String JVM_FLAGS = "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED";

    @Test
    void everyStressTestPassesAQuickRun() throws Exception
    {
        final Path jar = Path.of(System.getProperty("celer.jcstress.jar", "target/jcstress.jar"));
        assertThat(jar).as("the shaded jar, built in the package phase").exists();
        final Duration bound = Duration.ofSeconds(Long.getLong("celer.jcstress.quickTimeout", 240));
        final Path dir = jar.toAbsolutePath().getParent().resolve("jcstress-quick");
        Files.createDirectories(dir);
        final Path output = dir.resolve("output.txt");
        final List<String> expected = stressTests(jar);
        assertThat(expected).as("stress tests in the jar").hasSizeGreaterThanOrEqualTo(6);

        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final ProcessBuilder builder = new ProcessBuilder(java, "-jar", jar.toAbsolutePath().toString(),
            "-m", "sanity", "-sc", "false", "-v", "-jvmArgs", JVM_FLAGS, "-r", dir.resolve("report").toString())
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(output.toFile());
        final long start = System.nanoTime();
        final Process process = builder.start();
        if (!process.waitFor(bound.toSeconds(), TimeUnit.SECONDS))
        {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("the quick jcstress run took longer than " + bound + "; see " + output);
        }
        final long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        final String text = Files.readString(output, StandardCharsets.UTF_8);
        System.out.println("quick jcstress run: " + seconds + " s, " + lastSummary(text) + ", output in " + output);

        final Matcher summary = SUMMARY.matcher(lastSummary(text));
        assertThat(summary.matches()).as("a results line in " + output).isTrue();
        final int planned = Integer.parseInt(summary.group(1));
        assertThat(planned).as("results planned").isPositive();
        assertThat(Integer.parseInt(summary.group(3))).as("failed results; see " + output).isZero();
        assertThat(Integer.parseInt(summary.group(5))).as("hard errors; see " + output).isZero();
        assertThat(Integer.parseInt(summary.group(2))).as("passed results; see " + output).isEqualTo(planned);
        assertThat(process.exitValue()).as("jcstress exit code; see " + output).isZero();
        assertThat(text).contains("Failed tests: No matches.").contains("Error tests: No matches.");
        for (final String test : expected)
        {
            assertThat(text).as(test + " ran and passed").containsPattern("\\[OK\\] " + Pattern.quote(test) + "\\R");
        }
    }

    /**
     * The stress tests the jar holds: its classes named {@code *Stress}.
     */
    private static List<String> stressTests(final Path jar) throws IOException
    {
        final List<String> names = new ArrayList<>();
        try (ZipFile zip = new ZipFile(jar.toFile()))
        {
            zip.stream()
                .map(entry -> entry.getName())
                .filter(name -> name.startsWith("io/celer/") && name.endsWith("Stress.class"))
                .forEach(name -> names.add(name.substring(0, name.length() - ".class".length()).replace('/', '.')));
        }
        return names;
    }

    private static String lastSummary(final String text)
    {
        final Matcher matcher = SUMMARY.matcher(text);
        String last = "no results line";
        while (matcher.find())
        {
            last = matcher.group();
        }
        return last;
    }
}
