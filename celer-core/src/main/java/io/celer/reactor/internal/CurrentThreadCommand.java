package io.celer.reactor.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a Linux tool on the calling thread's kernel id ({@code taskset}, {@code renice}): what the JDK cannot set
 * for one thread without native code.
 */
final class CurrentThreadCommand
{
    private CurrentThreadCommand()
    {
    }

    /**
     * Runs the command with the calling thread's kernel id as its last argument, and waits for it.
     *
     * @param command the tool and its arguments before the thread id.
     * @return true when the tool ran and succeeded, false where it or the thread id is not available.
     */
    static boolean run(final String... command)
    {
        try
        {
            // /proc/thread-self is a link to /proc/PID/task/TID: the only way to learn the kernel thread id
            // without native code.
            final Path self = Files.readSymbolicLink(Path.of("/proc/thread-self"));
            final List<String> args = new ArrayList<>(List.of(command));
            args.add(self.getFileName().toString());
            final Process p = new ProcessBuilder(args)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
            return p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() == 0;
        }
        catch (final IOException | UnsupportedOperationException ex)
        {
            return false;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
