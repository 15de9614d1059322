package io.celer.bench.conns;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * {@code GET /plaintext} on a keep-alive connection, one request at a time: the answer must be a 200 with a
 * {@code Content-Length} body, which every HTTP peer sends.
 */
final class HttpExchange implements Exchange
{
    private static final byte[] CONTENT_LENGTH = "content-length:".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TRANSFER_ENCODING = "transfer-encoding:".getBytes(StandardCharsets.US_ASCII);

    private final byte[] request;
    private final AnswerBuffer answer = new AnswerBuffer();

    /**
     * The exchange.
     *
     * @param port the server's port, for the Host field.
     */
    HttpExchange(final int port)
    {
        this.request = ("GET /plaintext HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public void open(final InputStream in, final OutputStream out) throws IOException
    {
        roundTrip(in, out);
    }

    @Override
    public void roundTrip(final InputStream in, final OutputStream out) throws IOException
    {
        out.write(request);
        answer.clear();
        final int headEnd = answer.readHead(in, 200);
        if (fieldStart(headEnd, TRANSFER_ENCODING) >= 0)
        {
            throw new IOException("a Transfer-Encoding answer, where a Content-Length one was expected");
        }
        final int lengthAt = fieldStart(headEnd, CONTENT_LENGTH);
        if (lengthAt < 0)
        {
            throw new IOException("an answer without Content-Length");
        }
        final int end = headEnd + number(lengthAt);
        answer.readAtLeast(in, end);
        if (answer.length() != end)
        {
            // One request in flight: anything past this answer is not one the client asked for.
            throw new IOException((answer.length() - end) + " bytes after the answer");
        }
    }

    /** Where a field's value starts, its name matched without regard to case, or -1. */
    private int fieldStart(final int headEnd, final byte[] name)
    {
        for (int line = 0; line < headEnd; line++)
        {
            if (line > 0 && answer.at(line - 1) != '\n')
            {
                continue;
            }
            int i = 0;
            while (i < name.length && line + i < headEnd && Character.toLowerCase(answer.at(line + i)) == name[i])
            {
                i++;
            }
            if (i == name.length)
            {
                return line + i;
            }
        }
        return -1;
    }

    private int number(final int from) throws IOException
    {
        int i = from;
        while (answer.at(i) == ' ' || answer.at(i) == '\t')
        {
            i++;
        }
        long value = 0;
        final int digits = i;
        while (answer.at(i) >= '0' && answer.at(i) <= '9' && value < Integer.MAX_VALUE)
        {
            value = value * 10 + answer.at(i) - '0';
            i++;
        }
        if (i == digits || value >= Integer.MAX_VALUE)
        {
            throw new IOException("a Content-Length that is not a number");
        }
        return (int)value;
    }
}
