/**
 * {@code bench tick-to-trade}: the tick-to-trade example measured inside the process and on the wire, with a
 * tshark capture matched quote to order.
 */
package io.celer.bench.ticktotrade;
