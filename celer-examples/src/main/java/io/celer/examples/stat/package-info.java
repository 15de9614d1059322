/**
 * {@code ./celer stat}: the counters of running Celer processes, read from their counters files, as a live
 * table with rates or as OpenMetrics text for Prometheus.
 */
package io.celer.examples.stat;
