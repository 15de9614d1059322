package io.celer.bench.harness;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * JDKs other than the harness's, for peers that need a newer one (virtual threads, the FFM transport): the one an
 * environment variable names, else the newest under {@code /usr/lib/jvm}.
 */
public final class Jdks
{
    private static final Pattern RELEASE_VERSION = Pattern.compile("(?m)^JAVA_VERSION=\"(\\d+)");

    private Jdks()
    {
    }

    /**
     * A JDK of at least a feature release: the running one if it is, else {@code $CELER_JDK21} if it is, else the
     * newest installed one that is.
     *
     * @param minimum the feature release, such as 21.
     * @return its home, or null if none is found.
     */
    public static Path atLeast(final int minimum)
    {
        if (Runtime.version().feature() >= minimum)
        {
            return Path.of(System.getProperty("java.home"));
        }
        final String given = System.getenv("CELER_JDK21");
        if (given != null && !given.isBlank() && feature(Path.of(given)) >= minimum)
        {
            return Path.of(given);
        }
        Path best = null;
        int bestFeature = 0;
        try (DirectoryStream<Path> homes = Files.newDirectoryStream(Path.of("/usr/lib/jvm")))
        {
            for (final Path home : homes)
            {
                final int feature = feature(home);
                if (feature >= minimum && feature > bestFeature)
                {
                    best = home;
                    bestFeature = feature;
                }
            }
        }
        catch (final IOException ex)
        {
            return null;
        }
        return best;
    }

    private static int feature(final Path home)
    {
        try
        {
            if (!Files.isExecutable(home.resolve("bin").resolve("java")))
            {
                return 0;
            }
            final Matcher version = RELEASE_VERSION.matcher(Files.readString(home.resolve("release")));
            return version.find() ? Integer.parseInt(version.group(1)) : 0;
        }
        catch (final IOException | RuntimeException ex)
        {
            return 0;
        }
    }
}
