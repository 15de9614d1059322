package io.celer.bench.queues;

/**
 * Padding before the fields of a class that one thread writes, so that they share no cache line with the
 * object's header or with what the heap put before it. The first link of the package's padded class chains,
 * Agrona style; each chain adds its own padding after its fields.
 */
abstract class PadHead
{
    long p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}
