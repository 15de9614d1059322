package io.celer.bench;

/**
 * Lays out a table as aligned text or as Markdown.
 */
final class Tables
{
    private Tables()
    {
    }

    /**
     * Renders a table; the first column is left-aligned, the others right-aligned.
     *
     * @param header   column titles.
     * @param rows     cells, row by row.
     * @param markdown Markdown rather than plain text.
     * @return the table, ending with a newline.
     */
    static String render(final String[] header, final String[][] rows, final boolean markdown)
    {
        final int[] widths = new int[header.length];
        for (int c = 0; c < header.length; c++)
        {
            widths[c] = header[c].length();
            for (final String[] row : rows)
            {
                widths[c] = Math.max(widths[c], row[c].length());
            }
        }
        final StringBuilder out = new StringBuilder();
        row(out, header, widths, markdown);
        if (markdown)
        {
            out.append('|');
            for (int c = 0; c < widths.length; c++)
            {
                out.append(c == 0 ? ":" : "").append("-".repeat(widths[c] + 1)).append(c == 0 ? "" : ":")
                    .append('|');
            }
            out.append('\n');
        }
        else
        {
            int total = 0;
            for (final int width : widths)
            {
                total += width + 2;
            }
            out.append("-".repeat(total - 2)).append('\n');
        }
        for (final String[] cells : rows)
        {
            row(out, cells, widths, markdown);
        }
        return out.toString();
    }

    private static void row(final StringBuilder out, final String[] cells, final int[] widths, final boolean markdown)
    {
        if (markdown)
        {
            out.append('|');
        }
        for (int c = 0; c < cells.length; c++)
        {
            final String pad = " ".repeat(widths[c] - cells[c].length());
            final String cell = c == 0 ? cells[c] + pad : pad + cells[c];
            if (markdown)
            {
                out.append(' ').append(cell).append(" |");
            }
            else
            {
                out.append(c == 0 ? "" : "  ").append(cell);
            }
        }
        out.append('\n');
    }
}
