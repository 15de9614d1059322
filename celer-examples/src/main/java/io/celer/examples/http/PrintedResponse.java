package io.celer.examples.http;

import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import io.celer.examples.cli.ClientOutcome;
import io.celer.http.client.HttpClientException;
import io.celer.http.client.HttpClientResponse;
import io.celer.http.client.ResponseListener;
import io.celer.tcp.CloseReason;

/**
 * Prints one response as curl's {@code -i} would (status line, fields, an empty line and the body if asked)
 * and marks the client's {@link ClientOutcome} done: a success for a 2xx or 3xx status.
 */
final class PrintedResponse implements ResponseListener
{
    private final PrintStream out;
    private final boolean printBody;
    private final ClientOutcome outcome;
    private volatile int status;
    private boolean headPrinted;

    PrintedResponse(final PrintStream out, final boolean printBody, final ClientOutcome outcome)
    {
        this.out = out;
        this.printBody = printBody;
        this.outcome = outcome;
    }

    @Override
    public void bodyChunk(final HttpClientResponse response, final ByteBuffer chunk)
    {
        printHead(response);
        printBody(chunk);
    }

    @Override
    public void response(final HttpClientResponse response)
    {
        printHead(response);
        printBody(response.body());
        out.flush();
        status = response.status();
        outcome.closed(CloseReason.LOCAL_CLOSE);
    }

    @Override
    public void error(final HttpClientException failure)
    {
        failed(failure);
    }

    /** Ends the run with a failure. */
    void failed(final Exception failure)
    {
        outcome.failed(failure);
        outcome.closed(CloseReason.IO_ERROR);
    }

    /** Whether a 2xx or 3xx answer came. */
    boolean succeeded()
    {
        return status >= 200 && status < 400;
    }

    /** Why the run failed, for its error line. */
    String whyNot(final String url)
    {
        return status == 0 ? "no response from " + url : "HTTP " + status + " from " + url;
    }

    private void printHead(final HttpClientResponse response)
    {
        if (headPrinted)
        {
            return;
        }
        headPrinted = true;
        out.print("HTTP/1." + response.minorVersion() + " " + response.status() + " " + response.reason() + "\r\n");
        for (int i = 0; i < response.headerCount(); i++)
        {
            out.print(response.headerName(i) + ": " + response.headerValue(i) + "\r\n");
        }
        out.print("\r\n");
    }

    private void printBody(final ByteBuffer bytes)
    {
        if (printBody && bytes.hasRemaining())
        {
            final byte[] copy = new byte[bytes.remaining()];
            bytes.get(copy);
            out.print(new String(copy, StandardCharsets.UTF_8));
        }
        bytes.position(bytes.limit());
    }
}
