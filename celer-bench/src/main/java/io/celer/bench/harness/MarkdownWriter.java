package io.celer.bench.harness;

import java.util.Locale;

/**
 * Renders a {@link Report} as Markdown, the same layout for every benchmark: title, introduction, facts, legend,
 * table and the further tables, plot, failures, then the report's sections.
 */
final class MarkdownWriter
{
    private MarkdownWriter()
    {
    }

    /**
     * The document.
     *
     * @param report  the run.
     * @param pngName the plot's file name beside the document, or null for none.
     * @return the Markdown.
     */
    static String render(final Report report, final String pngName)
    {
        final Environment env = report.result().environment();
        final StringBuilder out = new StringBuilder("# ").append(report.title()).append("\n\n");
        out.append(report.intro()).append(report.intro().isEmpty() ? "" : " ")
            .append(String.format(Locale.ROOT, "Started %s, took %.0f s.%n%n", env.started(),
                env.durationSeconds()));
        out.append("- JDK: ").append(env.jdk()).append('\n');
        out.append("- OS: ").append(env.os()).append(", ").append(env.cpus()).append(" CPUs\n");
        for (final String fact : report.facts())
        {
            out.append("- ").append(fact).append('\n');
        }
        out.append('\n');
        if (report.legend() != null)
        {
            out.append(report.legend()).append("\n\n");
        }
        out.append(report.table().markdown());
        for (final Report.Titled more : report.tables())
        {
            out.append("\n### ").append(more.heading()).append("\n\n").append(more.table().markdown());
        }
        if (pngName != null)
        {
            out.append("\n![").append(report.pictureTitle()).append("](").append(pngName).append(")\n");
        }
        if (report.notes() != null)
        {
            out.append("\n```text\n").append(report.notes()).append("```\n");
        }
        if (!report.failures().isEmpty())
        {
            out.append("\n## Failures\n\n");
            for (final String failure : report.failures())
            {
                out.append("- ").append(failure.lines().findFirst().orElse(failure)).append('\n');
            }
        }
        for (final Report.Section section : report.sections())
        {
            out.append("\n## ").append(section.heading()).append("\n\n").append(section.body());
        }
        return out.toString();
    }
}
