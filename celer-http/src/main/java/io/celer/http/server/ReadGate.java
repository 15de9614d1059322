package io.celer.http.server;

/**
 * Why an HTTP connection is not read now, a bit per reason, which the connection keeps in a byte: reading resumes
 * when the last reason clears, and the core then delivers again the bytes it already holds (at the end of the
 * reactor cycle) before reading more.
 */
final class ReadGate
{
    /** The peer does not read its responses. */
    static final int WRITE = 1;
    /** Every response slot is taken. */
    static final int PIPELINE = 2;
    /** An upgrade request waits for its answer. */
    static final int UPGRADE = 4;
    /** The per-read request budget is spent: the other connections go first. */
    static final int YIELD = 8;

    private ReadGate()
    {
    }
}
