/**
 * {@code bench queues}: Celer's carrier queues against Agrona, JCTools and the Disruptor under JMH; the JMH
 * benchmarks, their shared state, and the command, run and report that drive them.
 */
package io.celer.bench.queues;
