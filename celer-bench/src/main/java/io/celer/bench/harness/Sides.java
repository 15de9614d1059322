package io.celer.bench.harness;

/**
 * A value for each side of a run.
 *
 * @param client the client's.
 * @param server the server's.
 * @param <T>    the value's type.
 */
public record Sides<T>(T client, T server)
{
}
