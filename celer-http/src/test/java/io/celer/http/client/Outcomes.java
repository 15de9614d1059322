package io.celer.http.client;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.celer.test.Await;

/**
 * A response listener for tests: records each outcome as a line ({@code tag status body} or
 * {@code tag FAILED reason: message}), with streamed parts appended to the body.
 */
final class Outcomes implements ResponseListener
{
    private final List<String> lines = new ArrayList<>();
    private final List<HttpClientException> failures = new ArrayList<>();
    private final StringBuilder streamed = new StringBuilder();
    private final List<String> heads = new ArrayList<>();

    @Override
    public synchronized void response(final HttpClientResponse response)
    {
        final String body = streamed.length() > 0 ? streamed.toString() : text(response.body());
        streamed.setLength(0);
        lines.add(response.tag() + " " + response.status() + " " + body);
        final StringBuilder head = new StringBuilder(response.toString());
        for (int i = 0; i < response.headerCount(); i++)
        {
            head.append('\n').append(response.headerName(i)).append(": ").append(response.headerValue(i));
        }
        heads.add(head.toString());
    }

    @Override
    public synchronized void bodyChunk(final HttpClientResponse response, final ByteBuffer chunk)
    {
        streamed.append(text(chunk));
        chunk.position(chunk.limit());
    }

    @Override
    public synchronized void error(final HttpClientException failure)
    {
        lines.add(failure.tag() + " FAILED " + failure.reason() + ": " + failure.getMessage());
        failures.add(failure);
    }

    static String text(final ByteBuffer buffer)
    {
        final byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    synchronized int count()
    {
        return lines.size();
    }

    synchronized List<String> lines()
    {
        return new ArrayList<>(lines);
    }

    synchronized List<String> heads()
    {
        return new ArrayList<>(heads);
    }

    synchronized List<HttpClientException> failures()
    {
        return new ArrayList<>(failures);
    }

    /** Waits for a number of outcomes, then returns them all. */
    List<String> await(final int count)
    {
        Await.until(() -> "waiting for " + count + " outcomes, got " + lines(), () -> count() >= count,
            Await.DEFAULT);
        return lines();
    }
}
