package io.celer.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Runs benchmarks for the tests, and holds the documented fields of the result files, one list per benchmark under {@code fields/} beside this class:
 * every field path, arrays written {@code []}. A written file must have these and no others, but for the fields
 * under a value that was null (a C peer's GC counts, the CPUs of an unpinned run, a capture that did not run).
 */
public final class ResultFields
{
    private static final ObjectMapper JSON = new ObjectMapper();

    private ResultFields()
    {
    }

    /**
     * Runs a benchmark through the launcher, as {@code ./celer bench} does, with its files going to a directory;
     * checks that it succeeded and that its JSON has the documented fields.
     *
     * @param out  the results directory.
     * @param file the JSON file to read, such as {@code latest-tcp.json}.
     * @param list the field list it must match.
     * @param args the subcommand and its options, {@code --out} left out.
     * @return the JSON.
     * @throws IOException if the file cannot be read.
     */
    public static JsonNode run(final Path out, final String file, final String list, final String... args)
        throws IOException
    {
        final String[] all = Arrays.copyOf(args, args.length + 2);
        all[args.length] = "--out";
        all[args.length + 1] = out.toString();
        assertThat(Bench.commandLine().execute(all)).as("exit status of bench " + String.join(" ", args)).isZero();
        final JsonNode report = JSON.readTree(out.resolve(file).toFile());
        assertDocumented(report, list);
        return report;
    }

    /**
     * Checks every entry of a run's results, each named by its peer.
     *
     * @param report the run's JSON.
     * @param check  takes a peer's name and its entry.
     * @return the peers, in the results' order.
     */
    public static List<String> eachResult(final JsonNode report, final BiConsumer<String, JsonNode> check)
    {
        final List<String> peers = new ArrayList<>();
        for (final JsonNode entry : report.get("results"))
        {
            peers.add(entry.get("peer").asText());
            check.accept(entry.get("peer").asText(), entry);
        }
        return peers;
    }

    /**
     * Checks that a server's loops each took a share of something.
     *
     * @param shares the percentages, one per loop.
     * @param loops  how many loops.
     * @param what   whose shares, for the message.
     */
    public static void assertEveryLoopTookAShare(final JsonNode shares, final int loops, final String what)
    {
        assertThat(shares).as(what).hasSize(loops).allSatisfy(share -> assertThat(share.asDouble()).isPositive());
    }

    /**
     * Checks that a run wrote its dated files, {@code NAME-yyyyMMdd-HHmmss.EXT}, beside the latest ones.
     *
     * @param out        the results directory.
     * @param name       the files' name, such as {@code tcp}.
     * @param extensions the kinds expected, such as {@code json} and {@code md}.
     * @throws IOException if the directory cannot be listed.
     */
    public static void assertDatedFiles(final Path out, final String name, final String... extensions)
        throws IOException
    {
        final List<String> files;
        try (Stream<Path> listed = Files.list(out))
        {
            files = listed.map(p -> p.getFileName().toString()).toList();
        }
        for (final String extension : extensions)
        {
            assertThat(files).as("dated " + extension + " of " + name)
                .anyMatch(file -> file.matches(name + "-\\d{8}-\\d{6}\\." + extension));
        }
    }

    /**
     * Checks a result file against its list.
     *
     * @param report the parsed file.
     * @param list   the list's name, such as {@code tcp} or {@code tick-to-trade-wire}.
     */
    public static void assertDocumented(final JsonNode report, final String list)
    {
        final Set<String> expected = expected(list);
        final Set<String> actual = new TreeSet<>();
        final Set<String> nulls = new TreeSet<>();
        collect(report, "", actual, nulls);
        assertThat(actual).as("fields of " + list + " that are not documented").isSubsetOf(expected);
        for (final String field : expected)
        {
            if (!actual.contains(field))
            {
                assertThat(nulls).as(list + " lacks " + field + " though nothing above it is null")
                    .anyMatch(parent -> field.startsWith(parent + ".") || field.startsWith(parent + "[]"));
            }
        }
    }

    private static Set<String> expected(final String list)
    {
        try (InputStream in = ResultFields.class.getResourceAsStream("fields/" + list + ".txt"))
        {
            assertThat(in).as("the field list " + list).isNotNull();
            return new TreeSet<>(new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                .filter(line -> !line.isBlank()).toList());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static void collect(final JsonNode node, final String path, final Set<String> fields,
        final Set<String> nulls)
    {
        if (node.isObject())
        {
            final Iterator<Map.Entry<String, JsonNode>> children = node.fields();
            while (children.hasNext())
            {
                final Map.Entry<String, JsonNode> child = children.next();
                final String name = path.isEmpty() ? child.getKey() : path + "." + child.getKey();
                fields.add(name);
                if (child.getValue().isNull())
                {
                    nulls.add(name);
                }
                collect(child.getValue(), name, fields, nulls);
            }
        }
        else if (node.isArray())
        {
            for (final JsonNode element : node)
            {
                collect(element, path + "[]", fields, nulls);
            }
        }
    }
}
