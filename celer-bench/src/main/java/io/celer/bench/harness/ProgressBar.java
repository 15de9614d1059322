package io.celer.bench.harness;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A progress bar on stderr for long runs: one line redrawn in place on a terminal, a line per step otherwise.
 */
public final class ProgressBar
{
    private static final int WIDTH = 30;
    private static final long REDRAW_NANOS = 250_000_000L;

    private final PrintStream err;
    private final long total;
    private final boolean interactive;
    private final long startNanos = System.nanoTime();
    private long finished;
    private long current;
    private String label = "";
    private long lastDraw;
    private int lastLength;

    /**
     * A bar.
     *
     * @param err   where to draw.
     * @param total units of work in the whole run.
     */
    public ProgressBar(final PrintStream err, final long total)
    {
        this.err = err;
        this.total = Math.max(1, total);
        this.interactive = System.console() != null;
    }

    /**
     * A new step begins.
     *
     * @param stepLabel what runs now.
     */
    public void step(final String stepLabel)
    {
        label = stepLabel;
        current = 0;
        if (interactive)
        {
            draw();
        }
        else
        {
            err.printf(Locale.ROOT, "[bench] %3d%%  %s%n", percent(), stepLabel);
        }
    }

    /**
     * Progress within the current step.
     *
     * @param done units done in this step.
     */
    public void update(final long done)
    {
        current = done;
        if (interactive && System.nanoTime() - lastDraw > REDRAW_NANOS)
        {
            draw();
        }
    }

    /**
     * The current step is over.
     *
     * @param units the step's size.
     */
    public void endStep(final long units)
    {
        finished += units;
        current = 0;
    }

    /**
     * Clears the bar, leaving the terminal for the report.
     */
    public void close()
    {
        if (interactive && lastLength > 0)
        {
            err.print("\r" + " ".repeat(lastLength) + "\r");
            err.flush();
        }
    }

    private int percent()
    {
        return (int)Math.min(100, (finished + current) * 100 / total);
    }

    private void draw()
    {
        lastDraw = System.nanoTime();
        final double fraction = Math.min(1.0, (double)(finished + current) / total);
        final int filled = (int)(fraction * WIDTH);
        final double seconds = (lastDraw - startNanos) / 1e9;
        final long elapsed = (long)seconds;
        // Messages are the unit, and peers differ in speed: the estimate is rough, and none at first.
        final String eta = fraction > 0.02 && seconds >= 5
            ? " ~" + clock(Math.round(seconds / fraction - seconds)) + " left" : "";
        final String line = String.format(Locale.ROOT, "[%s%s] %3d%%  %s  %s elapsed%s",
            "#".repeat(filled), ".".repeat(WIDTH - filled), (int)(fraction * 100), label, clock(elapsed), eta);
        err.print("\r" + line + (line.length() < lastLength ? " ".repeat(lastLength - line.length()) : ""));
        err.flush();
        lastLength = line.length();
    }

    private static String clock(final long seconds)
    {
        return String.format(Locale.ROOT, "%d:%02d", seconds / 60, seconds % 60);
    }
}
