package io.celer.examples.ticktotrade;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

import org.HdrHistogram.Histogram;

import io.celer.reactor.Reactor;
import io.celer.tcp.Connection;
import io.celer.tcp.Handler;
import io.celer.tcp.TcpClient;
import io.celer.tcp.TcpConfig;
import io.celer.udp.DatagramHandler;
import io.celer.udp.UdpConfig;
import io.celer.udp.UdpEndpoint;

/**
 * A trading strategy on one reactor thread: quotes arrive over UDP, each one is answered at once with an
 * order over TCP, and the time from the quote's arrival to the order's write is recorded.
 *
 * <p>Nothing is allocated per quote: the quote is parsed in place, the order is encoded into one reused
 * buffer, and the histogram is pre-sized.
 */
public final class TickToTradeStrategy implements DatagramHandler
{
    private final UdpEndpoint quotes;
    private final TcpClient exchange;
    private final FixMessage order = new FixMessage(ByteBuffer.allocateDirect(PseudoExchange.MAX_MESSAGE));
    private final Histogram tickToTrade = new Histogram(10_000_000_000L, 3);
    private volatile boolean recording;
    private volatile long quotesReceived;
    private volatile long malformed;
    private volatile long ordersSent;
    private volatile long executions;

    /**
     * Builds the strategy; nothing opens until {@link #open()}.
     *
     * @param reactor      the one reactor thread for market data and orders.
     * @param quoteConfig  the UDP settings (multicast interface and so on).
     * @param exchangePort the pseudo exchange's loopback port.
     */
    public TickToTradeStrategy(final Reactor reactor, final UdpConfig quoteConfig, final int exchangePort)
    {
        quotes = new UdpEndpoint(reactor, 0, quoteConfig, this);
        exchange = new TcpClient(reactor, "127.0.0.1", exchangePort, new TcpConfig()
            .framing(() -> new FixFraming(PseudoExchange.MAX_MESSAGE)), new Handler()
            {
                @Override
                public void message(final Connection connection, final ByteBuffer message)
                {
                    executions++;
                }
            });
    }

    /**
     * Opens the quote socket and connects to the exchange.
     *
     * @return this.
     */
    public TickToTradeStrategy open()
    {
        quotes.open();
        exchange.open();
        return this;
    }

    /**
     * @return the UDP endpoint quotes arrive on, to join groups or learn its port.
     */
    public UdpEndpoint quotes()
    {
        return quotes;
    }

    /**
     * @return whether the order connection is up; readable from any thread.
     */
    public boolean isConnected()
    {
        return exchange.isOpen();
    }

    @Override
    public void datagram(final UdpEndpoint endpoint, final ByteBuffer quote, final InetSocketAddress sender)
    {
        final long arrived = System.nanoTime();
        quotesReceived++;
        if (!Quote.isValid(quote))
        {
            malformed++; // a truncated or corrupt datagram is the handler's to drop
            return;
        }
        final Connection connection = exchange.connection();
        if (!connection.isOpen())
        {
            return;
        }
        final ByteBuffer message = order.begin('D')
            .field(11, Quote.id(quote))
            .field(55, quote, quote.position() + 9, Quote.SYMBOL_LENGTH)
            .field(54, Quote.side(quote) == 'B' ? '2' : '1') // hit the bid with a sell, lift the ask with a buy
            .field(38, Math.min(Quote.size(quote), 100))
            .price(44, Quote.price(quote))
            .field(40, '2')
            .end();
        if (connection.send(message))
        {
            ordersSent++;
            if (recording)
            {
                tickToTrade.recordValue(System.nanoTime() - arrived);
            }
        }
    }

    /**
     * Starts or stops recording tick-to-trade times; call from any thread.
     *
     * @param on true to record.
     */
    public void recording(final boolean on)
    {
        recording = on;
    }

    /**
     * The recorded tick-to-trade times; read once the reactor is stopped or idle.
     *
     * @return nanoseconds per quote.
     */
    public Histogram tickToTrade()
    {
        return tickToTrade;
    }

    /** @return datagrams received. */
    public long quotesReceived()
    {
        return quotesReceived;
    }

    /** @return datagrams dropped as malformed. */
    public long malformed()
    {
        return malformed;
    }

    /** @return orders written. */
    public long ordersSent()
    {
        return ordersSent;
    }

    /** @return execution reports received. */
    public long executions()
    {
        return executions;
    }
}
