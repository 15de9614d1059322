package io.celer.bench.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A table of a run's results, laid out as aligned text for the terminal or as Markdown for the file; the first
 * column is left-aligned, the others right-aligned.
 *
 * @param header column titles.
 * @param rows   cells, row by row, as many as there are titles.
 */
public record Table(List<String> header, List<List<String>> rows)
{
    /**
     * A table.
     *
     * @param header column titles.
     * @param rows   cells, row by row.
     */
    public Table
    {
        header = List.copyOf(header);
        rows = List.copyOf(rows);
    }

    /**
     * A table of one row per item.
     *
     * @param header column titles.
     * @param items  what the rows show, in order.
     * @param row    an item's cells, as many as there are titles.
     * @param <T>    the items' type.
     * @return the table.
     */
    public static <T> Table of(final List<String> header, final List<? extends T> items,
        final Function<? super T, List<String>> row)
    {
        final List<List<String>> rows = new ArrayList<>(items.size());
        for (final T item : items)
        {
            rows.add(row.apply(item));
        }
        return new Table(header, rows);
    }

    /**
     * As aligned text.
     *
     * @return the table, ending with a newline.
     */
    public String text()
    {
        return render(false);
    }

    /**
     * As Markdown.
     *
     * @return the table, ending with a newline.
     */
    public String markdown()
    {
        return render(true);
    }

    private String render(final boolean markdown)
    {
        final String[] header = this.header.toArray(new String[0]);
        final String[][] rows = new String[this.rows.size()][];
        for (int i = 0; i < rows.length; i++)
        {
            rows[i] = this.rows.get(i).toArray(new String[0]);
        }
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
