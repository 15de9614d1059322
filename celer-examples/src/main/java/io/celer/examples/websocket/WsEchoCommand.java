package io.celer.examples.websocket;

import io.celer.examples.cli.ReactorOptions;
import io.celer.examples.cli.ServerOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code ./celer demo ws-echo}: runs {@link WsEchoServer} until stopped, on one reactor or several.
 */
public final class WsEchoCommand
{
    /**
     * Runs the server until stopped (Ctrl-C).
     *
     * @param server   the shared server options.
     * @param reactors how many reactors, on which CPUs.
     * @return the exit code: 0 once stopped, 1 if it could not start.
     * @throws InterruptedException if interrupted while waiting.
     */
    @Command(
        name = "ws-echo",
        description = "echoes WebSocket text and binary messages on any path (permessage-deflate, up to 16 MiB); " +
            "GET / serves a page that echoes through it, /?selftest=N makes the page check N echoes")
    static int run(@Mixin final ServerOptions server, @Mixin final ReactorOptions reactors)
        throws InterruptedException
    {
        return server.serve(reactors, (group, running) ->
            WsEchoServer.open(group, server.port(), server.config(), server.out()).localAddress());
    }
}
