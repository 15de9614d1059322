package io.celer.examples.counter;

import io.celer.examples.cli.ClientOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code ./celer demo counter-client}: runs a {@link CounterClient} with a {@link CounterTicker} changing
 * its counter every second from another thread.
 */
public final class CounterClientCommand
{
    private static final long TICK_MILLIS = 1_000;

    /**
     * Counts until the server hangs up.
     *
     * @param client the shared client options.
     * @return the exit code: 0 if a line came, else 1.
     * @throws InterruptedException if interrupted while waiting.
     */
    @Command(
        name = "counter-client",
        description = "counts '+' and '-' lines from a server; another thread adds changes every second " +
            "through a garbage-free callback queue")
    static int run(@Mixin final ClientOptions client) throws InterruptedException
    {
        return client.connect((reactor, running) ->
        {
            final CounterClient counter =
                new CounterClient(reactor, client.host(), client.port(), client.config(), client.out());
            final CounterTicker ticker = new CounterTicker(reactor, counter, TICK_MILLIS);
            running.onStop(ticker::stop);
            running.finishWhen(counter.outcome(), () -> counter.linesReceived() > 0,
                () -> "nothing received from the server");
            counter.open();
            ticker.start();
        });
    }
}
