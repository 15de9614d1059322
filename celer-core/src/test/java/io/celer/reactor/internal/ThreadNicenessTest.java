package io.celer.reactor.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/**
 * {@link ThreadNiceness} on Linux: the kernel's own account of the thread, {@code /proc/thread-self/stat}, says
 * its nice value.
 */
class ThreadNicenessTest
{
    /**
     * The calling thread's nice value as the kernel has it: the 19th field of its stat line, counted after the
     * command name, which is in parentheses and may hold spaces.
     */
    static int niceOfCurrentThread() throws IOException
    {
        final String stat = new String(Files.readAllBytes(Path.of("/proc/thread-self/stat")), StandardCharsets.US_ASCII);
        final String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Integer.parseInt(fields[16]); // fields from the state, the 3rd: the nice value is the 19th
    }

    @Test
    void lowersTheCallingThreadOnlyToTheNiceValueAsked() throws Exception
    {
        assumeTrue(Files.exists(Path.of("/proc/thread-self/stat")), "Linux only");
        final AtomicInteger before = new AtomicInteger(-100);
        final AtomicInteger after = new AtomicInteger(-100);
        final AtomicInteger other = new AtomicInteger(-100);
        final int mine = niceOfCurrentThread();
        final Thread thread = new Thread(() ->
        {
            try
            {
                before.set(niceOfCurrentThread());
                assumeTrue(ThreadNiceness.setForCurrentThread(Math.min(19, before.get() + 7)), "renice available");
                after.set(niceOfCurrentThread());
            }
            catch (final IOException ex)
            {
                throw new IllegalStateException(ex);
            }
        });
        thread.start();
        thread.join(10_000);
        other.set(niceOfCurrentThread());
        assumeTrue(after.get() != -100, "renice available");
        assertThat(after.get()).isEqualTo(Math.min(19, before.get() + 7));
        assertThat(other.get()).as("the thread that did not ask").isEqualTo(mine);
    }

    @Test
    void refusesValuesOutsideOneToNineteen()
    {
        assertThatThrownBy(() -> ThreadNiceness.setForCurrentThread(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ThreadNiceness.setForCurrentThread(20)).isInstanceOf(IllegalArgumentException.class);
    }
}
