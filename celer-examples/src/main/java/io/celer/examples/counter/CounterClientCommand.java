package io.celer.examples.counter;

import java.util.concurrent.Callable;

import io.celer.examples.cli.ClientOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code ./celer demo counter-client}: runs a {@link CounterClient} with a {@link CounterTicker} changing
 * its counter every second from another thread.
 */
@Command(
    name = "counter-client",
    description = "counts '+' and '-' lines from a server; another thread adds changes every second " +
        "through a garbage-free callback queue")
public final class CounterClientCommand implements Callable<Integer>
{
    private static final long TICK_MILLIS = 1_000;

    @Mixin
    private ClientOptions client;

    /**
     * Counts until the server hangs up.
     *
     * @return the exit code: 0 if a line came, else 1.
     * @throws InterruptedException if interrupted while waiting.
     */
    @Override
    public Integer call() throws InterruptedException
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
