package io.celer.examples.ticktotrade;

import java.nio.ByteBuffer;

import io.celer.reactor.Reactor;
import io.celer.tcp.Connection;
import io.celer.tcp.Handler;
import io.celer.tcp.TcpConfig;
import io.celer.tcp.TcpServer;

/**
 * A pretend exchange: fills every order at once and answers with an execution report naming its id.
 */
public final class PseudoExchange implements Handler
{
    /** The longest FIX message either side sends. */
    public static final int MAX_MESSAGE = 512;

    private final TcpServer server;
    private final FixMessage report = new FixMessage(ByteBuffer.allocateDirect(MAX_MESSAGE));
    private long executions;
    private volatile long orders;
    private volatile long rejects;

    /**
     * Listens on a loopback port.
     *
     * @param reactor the reactor.
     * @param port    the port, 0 for any.
     */
    public PseudoExchange(final Reactor reactor, final int port)
    {
        server = new TcpServer(reactor, port, new TcpConfig().bindAddress("127.0.0.1")
            .framing(() -> new FixFraming(MAX_MESSAGE)), this);
    }

    /**
     * Starts listening.
     *
     * @return this.
     */
    public PseudoExchange open()
    {
        server.open();
        return this;
    }

    /**
     * @return the port it listens on.
     */
    public int port()
    {
        return server.port();
    }

    /**
     * @return orders filled so far; readable from any thread.
     */
    public long orders()
    {
        return orders;
    }

    /**
     * @return messages refused for a bad checksum or a missing order id; readable from any thread.
     */
    public long rejects()
    {
        return rejects;
    }

    @Override
    public void message(final Connection connection, final ByteBuffer message)
    {
        final int digitsAt = message.limit() - 4; // "10=ddd" SOH ends every message
        final long clOrdId = FixMessage.numberField(message, 11);
        if (clOrdId < 0 || FixMessage.checksum(message, message.position(), digitsAt - 3) != checksumValue(message,
            digitsAt))
        {
            rejects++;
            return;
        }
        orders++;
        connection.send(report.begin('8')
            .field(37, ++executions)
            .field(11, clOrdId)
            .field(150, 'F')
            .field(39, '2')
            .end());
    }

    private static int checksumValue(final ByteBuffer message, final int at)
    {
        return (message.get(at) - '0') * 100 + (message.get(at + 1) - '0') * 10 + (message.get(at + 2) - '0');
    }

    /**
     * Stops listening and closes its connections.
     */
    public void close()
    {
        server.close();
    }
}
