package io.celer.examples;

import io.celer.examples.cli.ClientOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code ./celer demo time-client}: runs a {@link TimeClient} until its server hangs up.
 */
public final class TimeClientCommand
{
    /**
     * Prints the times until the server hangs up.
     *
     * @param client the shared client options.
     * @return the exit code: 0 if a time came, else 1.
     * @throws InterruptedException if interrupted while waiting.
     */
    @Command(name = "time-client", description = "prints the times an RFC 868 server sends (time, time-beat)")
    static int run(@Mixin final ClientOptions client) throws InterruptedException
    {
        return client.connect((reactor, running) ->
        {
            final TimeClient time =
                new TimeClient(reactor, client.host(), client.port(), client.config(), client.out());
            running.finishWhen(time.outcome(), () -> time.received() > 0, () -> "no time received");
            time.open();
        });
    }
}
