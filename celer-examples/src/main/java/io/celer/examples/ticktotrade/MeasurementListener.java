package io.celer.examples.ticktotrade;

import java.net.InetSocketAddress;

/**
 * Told by {@link TickToTrade#run(long, long, long, java.io.PrintStream, MeasurementListener)} when the measured
 * phase starts and ends, with where its packets travel, so that a caller can observe the same quotes and orders
 * from outside the process (a packet capture, for instance).
 *
 * <p>Both methods run on the generator's thread, which waits for them: nothing is sent meanwhile.
 */
public interface MeasurementListener
{
    /** A listener that does nothing. */
    MeasurementListener NONE = new MeasurementListener()
    {
    };

    /**
     * The measured phase: where its quotes and orders travel, and which quotes it sends.
     *
     * @param interfaceName the network interface carrying both, such as {@code lo}.
     * @param transport     {@code multicast} or {@code unicast}, how the quotes go.
     * @param quoteSource   the generator's address, the source of every quote datagram.
     * @param quoteTarget   where the quotes go: the group or the strategy's address, with the strategy's port.
     * @param exchange      the pseudo exchange's address, the destination of every order.
     * @param firstQuoteId  the id of the first measured quote; an order carries its quote's id in tag 11.
     * @param lastQuoteId   the id of the last measured quote.
     */
    record Phase(String interfaceName, String transport, InetSocketAddress quoteSource, InetSocketAddress quoteTarget,
        InetSocketAddress exchange, long firstQuoteId, long lastQuoteId)
    {
    }

    /**
     * Called after the warm-up, once the strategy is quiet, before the first measured quote is sent.
     *
     * @param phase where the measured packets will travel and which quotes are measured.
     */
    default void beforeMeasuring(final Phase phase)
    {
    }

    /**
     * Called once the last measured quote is answered (or given up), before the run's sockets close.
     */
    default void afterMeasuring()
    {
    }
}
