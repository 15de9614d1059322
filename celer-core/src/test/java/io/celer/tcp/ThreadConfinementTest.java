package io.celer.tcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.Socket;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorConfig;
import io.celer.test.RecordingHandler;

/**
 * With thread checks on, touching a connection from a foreign thread fails loudly instead of corrupting it.
 */
class ThreadConfinementTest
{
    private Reactor reactor;

    @AfterEach
    void stop()
    {
        reactor.stop();
    }

    private TcpServer serve(final boolean checkThreads, final RecordingHandler handler)
    {
        reactor = new Reactor(new ReactorConfig().name("server").daemon(true).checkThreads(checkThreads)
            .idleStrategy(new BackoffIdleStrategy(1, 1, 1_000, 1_000_000))).start();
        return new TcpServer(reactor, 0, new TcpConfig().bindAddress("127.0.0.1"), handler).open();
    }

    @Test
    void aForeignThreadIsRefusedWithAMessageThatSaysWhatToDo() throws Exception
    {
        final RecordingHandler handler = new RecordingHandler();
        final TcpServer server = serve(true, handler);
        try (Socket socket = new Socket("127.0.0.1", server.port()))
        {
            handler.awaitEvent("opened");
            final Connection connection = handler.connection;
            assertThatThrownBy(() -> connection.send("hello"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Connection.write called on thread " + Thread.currentThread().getName())
                .hasMessageContaining("call() or callAsync()");
            assertThatThrownBy(connection::close).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> server.connection(connection.id())).isInstanceOf(IllegalStateException.class);

            reactor.call(() -> connection.send("hello"));
            assertThat(new String(socket.getInputStream().readNBytes(5), java.nio.charset.StandardCharsets.US_ASCII))
                .isEqualTo("hello");
        }
    }

    @Test
    void withoutTheFlagNothingIsChecked() throws Exception
    {
        final RecordingHandler handler = new RecordingHandler();
        final TcpServer server = serve(false, handler);
        try (Socket socket = new Socket("127.0.0.1", server.port()))
        {
            handler.awaitEvent("opened");
            assertThat(server.connection(handler.connection.id())).isSameAs(handler.connection);
        }
    }
}
