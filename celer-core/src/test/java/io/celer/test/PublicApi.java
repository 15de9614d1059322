package io.celer.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;

/**
 * A module's API is the list in ARCHITECTURE.md's API section: every public top-level type outside an
 * {@code internal} package, by package. The check fails on a public type the list lacks and on a listed type the
 * code lacks, so that what users may rely on changes only where the document says so.
 */
public final class PublicApi
{
    private static final Pattern LINE = Pattern.compile("^- `([\\w.]+)`: (.*)$");
    private static final Pattern TYPE = Pattern.compile("`(\\w+)`");

    private PublicApi()
    {
    }

    /**
     * Fails unless the module's public types, internal packages left out, are exactly those ARCHITECTURE.md lists.
     *
     * @param classes the module's main classes.
     * @param module  the module's heading in the API section, such as {@code celer-websocket}.
     */
    public static void assertListed(final JavaClasses classes, final String module)
    {
        final Set<String> actual = new TreeSet<>();
        for (final JavaClass type : classes)
        {
            if (type.getModifiers().contains(JavaModifier.PUBLIC) && type.isTopLevelClass() &&
                !type.getPackageName().contains(".internal") && !type.getSimpleName().equals("package-info"))
            {
                actual.add(type.getName());
            }
        }
        assertThat(actual).as("the public types of %s against ARCHITECTURE.md's API section " +
            "(a type to add there, or one to make package-private or move to an internal package)", module)
            .containsExactlyInAnyOrderElementsOf(listed(module));
    }

    /** The types listed under {@code ### module} in the API section. */
    static Set<String> listed(final String module)
    {
        final List<String> lines = read(document());
        final Set<String> types = new TreeSet<>();
        boolean inModule = false;
        for (final String line : lines)
        {
            if (line.startsWith("#"))
            {
                inModule = line.equals("### " + module);
                continue;
            }
            final Matcher entry = LINE.matcher(line);
            if (inModule && entry.matches())
            {
                final Matcher type = TYPE.matcher(entry.group(2));
                while (type.find())
                {
                    types.add(entry.group(1) + "." + type.group(1));
                }
            }
        }
        assertThat(types).as("ARCHITECTURE.md lists no API for %s", module).isNotEmpty();
        return types;
    }

    private static Path document()
    {
        for (Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath(); dir != null; dir = dir.getParent())
        {
            final Path candidate = dir.resolve("ARCHITECTURE.md");
            if (Files.isRegularFile(candidate))
            {
                return candidate;
            }
        }
        throw new AssertionError("no ARCHITECTURE.md above " + System.getProperty("user.dir"));
    }

    private static List<String> read(final Path path)
    {
        try
        {
            return Files.readAllLines(path);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
