package io.celer.queue;

/**
 * Padding before the first fields one thread writes, so they share no cache line with the object header or
 * with the object before it: the first link of every padded class chain in this package.
 */
abstract class PadHead
{
    /** Fills the gap after a compressed header, where the JVM would otherwise put a subclass's int. */
    int p00;
    long p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}
