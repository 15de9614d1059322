package io.celer.bench.ws.peer;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.celer.bench.peer.server.ReactorIdle;

/**
 * {@link CelerWebSocketServer} feeds and echoes as the other peers do, and drops for a client that stops reading
 * with back-pressure on, and queues for it with back-pressure off, whether its reactor waits in the selector,
 * spins, yields or parks between ticks.
 */
@Timeout(90)
class CelerWebSocketServerTest
{
    @Test
    void feedsAndEchoes() throws Exception
    {
        WebSocketPeerChecks.feedAndEcho(args -> WebSocketPeerChecks.configured(new CelerWebSocketServer(), args));
    }

    @ParameterizedTest(name = "--idle={0}")
    @ValueSource(strings = {"select", "spin", "yield", "backoff"})
    void dropsOrQueuesForAStalledClient(final String idle) throws Exception
    {
        WebSocketPeerChecks.backPressure(args ->
        {
            final String[] withIdle = Arrays.copyOf(args, args.length + 1);
            withIdle[args.length] = "--idle=" + idle;
            return WebSocketPeerChecks.configured(new CelerWebSocketServer(), withIdle);
        });
    }

    @Test
    void refusesAnUnknownIdleStrategy()
    {
        assertThatThrownBy(() -> ReactorIdle.of("sleep"))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("select, spin, yield or backoff");
    }
}
